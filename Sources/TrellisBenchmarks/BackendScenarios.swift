import Synchronization
import Trellis

// `backend`: a request of a shop's back end as a new user writes it — an application of 57
// definitions in five groups (infrastructure, stores typed as a protocol, services filled by
// `@Inject` from a shared base class, prototypes and aliases, scheduled jobs), and per
// request a child context holding the request (a struct), its session, a unit of work that
// leases a connection and gives it back when the child is closed, and the handler with ten
// `@Inject` properties of every kind (a struct, protocols, a made singleton of the app, an
// optional nobody defines, a default, a prototype). The handler handles the request, the child
// is closed. `direct` is the same request wired by hand against the same application objects:
// what the framework costs the path a real app takes, the first-time costs of a fresh context
// included.

// MARK: The application's objects

final class ShopConfig: Sendable { let region = "eu"; let poolSize = 16; let currency = "EUR" }
protocol ShopClock: AnyObject, Sendable { var now: Int { get } }
final class ShopSystemClock: ShopClock { var now: Int { 1_700_000_000 } }
final class ShopLogger: Sendable { let level = 2 }
final class ShopMetrics: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
}
final class ShopTracer: Sendable { let sampling = 0.1 }
final class ShopCache: Sendable { let capacity = 1_024 }
final class ShopEventBus: Sendable { let topics = 8 }
final class ShopFlags: Sendable { let config: ShopConfig; init(config: ShopConfig) { self.config = config }; var fastCheckout: Bool { config.region == "eu" } }
final class ShopHTTPClient: Sendable { let config: ShopConfig; let logger: ShopLogger; init(config: ShopConfig, logger: ShopLogger) { self.config = config; self.logger = logger } }
final class ShopSerializer: Sendable { let pretty = false }
final class ShopIDGenerator: Sendable {
    private let next = Atomic<Int>(0)
    func make() -> Int { next.add(1, ordering: .relaxed).newValue }
}

/// Connections leased per request and given back when its unit of work is disposed.
final class ShopPool: Sendable {
    let size: Int
    private let out = Atomic<Int>(0)
    init(config: ShopConfig) { size = config.poolSize }
    func lease() -> ShopConnection { out.add(1, ordering: .relaxed); return ShopConnection(pool: self) }
    func giveBack() { out.subtract(1, ordering: .relaxed) }
    var leased: Int { out.load(ordering: .relaxed) }
}
final class ShopConnection: Sendable { let pool: ShopPool; init(pool: ShopPool) { self.pool = pool } }

/// Every store of the shop, typed as this protocol so tests can replace it.
protocol ShopStoring: AnyObject, Sendable { var table: String { get } }
final class ShopStore: ShopStoring {
    let table: String; let pool: ShopPool
    init(table: String, pool: ShopPool) { self.table = table; self.pool = pool }
}

/// The gateways to the world outside, each its own type.
final class ShopPaymentGateway: Sendable { let client: ShopHTTPClient; init(client: ShopHTTPClient) { self.client = client } }
final class ShopMailer: Sendable { let client: ShopHTTPClient; init(client: ShopHTTPClient) { self.client = client } }
final class ShopSMSSender: Sendable { let client: ShopHTTPClient; init(client: ShopHTTPClient) { self.client = client } }
final class ShopTaxTable: Sendable { let rate = 20 }
final class ShopCurrencies: Sendable { let base = "EUR" }
final class ShopSearchIndex: Sendable { let shards = 4 }
final class ShopRecommender: Sendable { let model = "v3" }
final class ShopFraudCheck: Sendable { let threshold = 900 }

/// What every service of the shop has, filled by `@Inject`.
class ShopServiceBase {
    @Inject var logger: ShopLogger
    @Inject var metrics: ShopMetrics
    @Inject var clock: any ShopClock
}

protocol ShopPricing: AnyObject { func price(of items: Int) -> Int }
final class ShopPricingService: ShopServiceBase, ShopPricing {
    @Inject var taxes: ShopTaxTable
    @Inject var currencies: ShopCurrencies
    @Inject("productsStore") var products: any ShopStoring
    func price(of items: Int) -> Int { items * 1_000 * (100 + taxes.rate) / 100 }
}
final class ShopOrderService: ShopServiceBase {
    @Inject("ordersStore") var orders: any ShopStoring
    @Inject("inventoryStore") var inventory: any ShopStoring
    @Inject("paymentGateway") var payments: ShopPaymentGateway
    @Inject var eventBus: ShopEventBus
    func place(items: Int, total: Int) -> Int { metrics.increment(); return items &+ total &+ clock.now }
}
final class ShopUserService: ShopServiceBase { @Inject("usersStore") var users: any ShopStoring }
final class ShopCartService: ShopServiceBase { @Inject("cartsStore") var carts: any ShopStoring }
final class ShopInventoryService: ShopServiceBase { @Inject("inventoryStore") var inventory: any ShopStoring }
final class ShopShippingService: ShopServiceBase { @Inject("shipmentsStore") var shipments: any ShopStoring }
final class ShopNotificationService: ShopServiceBase { @Inject var mailer: ShopMailer; @Inject var sms: ShopSMSSender }
final class ShopReviewService: ShopServiceBase { @Inject("reviewsStore") var reviews: any ShopStoring }
final class ShopCouponService: ShopServiceBase { @Inject("couponsStore") var coupons: any ShopStoring }
final class ShopInvoiceService: ShopServiceBase { @Inject("invoicesStore") var invoices: any ShopStoring }
final class ShopAuditService: ShopServiceBase { @Inject("auditsStore") var audits: any ShopStoring }
final class ShopSearchService: ShopServiceBase { @Inject var searchIndex: ShopSearchIndex }

/// A scheduled job of the shop's back end.
final class ShopJob: Sendable { let name: String; let bus: ShopEventBus; init(name: String, bus: ShopEventBus) { self.name = name; self.bus = bus } }

/// Made for each use: a quote of a cart, with the pricing it asks.
final class ShopQuote { let pricing: any ShopPricing; init(pricing: any ShopPricing) { self.pricing = pricing } }
final class ShopValidator { let flags: ShopFlags; init(flags: ShopFlags) { self.flags = flags } }

/// The shop's application: 57 definitions in five groups, as Docs/GettingStarted.md splits one.
struct ShopAppFactory: ObjectFactory {
    static let stores = ["users", "products", "orders", "carts", "payments", "inventory", "addresses", "reviews", "coupons", "shipments", "invoices", "audits"]

    var definitions: Definitions {
        infrastructure
        stores
        services
        perUse
        jobs
    }

    @DefinitionsBuilder var infrastructure: Definitions {
        createSingleton("config") { ShopConfig() }
        createSingleton("clock") { ShopSystemClock() as any ShopClock }
        createSingleton("logger") { ShopLogger() }
        createSingleton("metrics") { ShopMetrics() }
        createSingleton("tracer") { ShopTracer() }
        createSingleton("cache") { ShopCache() }
        createSingleton("eventBus") { ShopEventBus() }
        createSingleton("flags") { r in ShopFlags(config: try r.object("config")) }
        createSingleton("httpClient") { r in ShopHTTPClient(config: try r.object("config"), logger: try r.object("logger")) }
        createSingleton("serializer") { ShopSerializer() }
        createSingleton("idGenerator") { ShopIDGenerator() }
        createSingleton("pool") { r in ShopPool(config: try r.object("config")) }
    }

    @DefinitionsBuilder var stores: Definitions {
        for table in Self.stores {
            createSingleton("\(table)Store") { r in ShopStore(table: table, pool: try r.object("pool")) as any ShopStoring }
        }
    }

    @DefinitionsBuilder var services: Definitions {
        createSingleton("paymentGateway") { r in ShopPaymentGateway(client: try r.object("httpClient")) }
        createSingleton("mailer") { r in ShopMailer(client: try r.object("httpClient")) }
        createSingleton("sms") { r in ShopSMSSender(client: try r.object("httpClient")) }
        createSingleton("taxes") { ShopTaxTable() }
        createSingleton("currencies") { ShopCurrencies() }
        createSingleton("searchIndex") { ShopSearchIndex() }
        createSingleton("recommender") { ShopRecommender() }
        createSingleton("fraudCheck") { ShopFraudCheck() }
        createSingleton("pricing") { ShopPricingService() as any ShopPricing }
        createSingleton("orderService") { ShopOrderService() }
        createSingleton("userService") { ShopUserService() }
        createSingleton("cartService") { ShopCartService() }
        createSingleton("inventoryService") { ShopInventoryService() }
        createSingleton("shippingService") { ShopShippingService() }
        createSingleton("notificationService") { ShopNotificationService() }
        createSingleton("reviewService") { ShopReviewService() }
        createSingleton("couponService") { ShopCouponService() }
        createSingleton("invoiceService") { ShopInvoiceService() }
        createSingleton("auditService") { ShopAuditService() }
        createSingleton("searchService") { ShopSearchService() }
    }

    @DefinitionsBuilder var perUse: Definitions {
        createPrototype("quote") { r in ShopQuote(pricing: try r.object("pricing")) }
        createPrototype("validator") { r in ShopValidator(flags: try r.object("flags")) }
        createPrototype("traceID") { r in ShopTraceID(value: (try r.object("idGenerator") as ShopIDGenerator).make()) }
        aliases(for: "orderService", "orders")
        aliases(for: "pricing", "prices")
        aliases(for: "mailer", "mail")
    }

    @DefinitionsBuilder var jobs: Definitions {
        for job in ["cleanup", "reindex", "digest", "reminders", "payouts", "restock", "exports", "backups", "metricsFlush", "cacheWarm"] {
            createSingleton("\(job)Job") { r in ShopJob(name: job, bus: try r.object("eventBus")) }
        }
    }
}

// MARK: One request

/// What the server parsed: a value, injected as it is.
struct ShopRequest: Sendable { let id: Int; let path: String; let items: Int }
final class ShopTraceID { let value: Int; init(value: Int) { self.value = value } }
final class ShopSession { let request: ShopRequest; init(request: ShopRequest) { self.request = request } }

/// Leases a connection for the request; gives it back when the request's context closes.
final class ShopUnitOfWork: Disposable {
    let connection: ShopConnection
    var changes = 0
    init(connection: ShopConnection) { self.connection = connection }
    func dispose() { connection.pool.giveBack() }
}

final class ShopCoupon {}

/// The handler of `/checkout`: ten properties of every kind a handler has.
final class ShopCheckoutHandler {
    @Inject var request: ShopRequest
    @Inject var session: ShopSession
    @Inject var unitOfWork: ShopUnitOfWork
    @Inject var orderService: ShopOrderService
    @Inject("prices") var pricing: any ShopPricing
    @Inject var logger: ShopLogger
    @Inject var clock: any ShopClock
    @Inject var coupon: ShopCoupon?
    @Inject var maxItems: Int = 50
    @Inject var traceID: ShopTraceID

    func handle() -> Int {
        let items = min(request.items, maxItems)
        unitOfWork.changes += 1
        return orderService.place(items: items, total: pricing.price(of: items)) &+ traceID.value &+ (coupon == nil ? 0 : 1)
    }
}

/// One request's context.
struct ShopRequestFactory: ObjectFactory {
    let request: ShopRequest
    var definitions: Definitions {
        createSingleton("request") { [request] in request }
        createSingleton("session") { r in ShopSession(request: try r.object("request")) }
        createSingleton("unitOfWork") { r in ShopUnitOfWork(connection: (try r.object("pool") as ShopPool).lease()) }
        createSingleton("handler") { ShopCheckoutHandler() }
    }
}

// MARK: The same request by hand

/// The handler as a developer wiring by hand writes it.
final class ShopHandCheckoutHandler {
    let request: ShopRequest, session: ShopSession, unitOfWork: ShopUnitOfWork
    let orderService: ShopOrderService, pricing: any ShopPricing, logger: ShopLogger, clock: any ShopClock
    let coupon: ShopCoupon?, maxItems: Int, traceID: ShopTraceID

    init(request: ShopRequest, session: ShopSession, unitOfWork: ShopUnitOfWork, orderService: ShopOrderService, pricing: any ShopPricing,
         logger: ShopLogger, clock: any ShopClock, coupon: ShopCoupon?, maxItems: Int, traceID: ShopTraceID) {
        self.request = request; self.session = session; self.unitOfWork = unitOfWork; self.orderService = orderService
        self.pricing = pricing; self.logger = logger; self.clock = clock; self.coupon = coupon; self.maxItems = maxItems; self.traceID = traceID
    }

    func handle() -> Int {
        let items = min(request.items, maxItems)
        unitOfWork.changes += 1
        return orderService.place(items: items, total: pricing.price(of: items)) &+ traceID.value &+ (coupon == nil ? 0 : 1)
    }
}

/// The application's objects a request uses, taken from the context once: the hand-wired
/// request shares them, so both contenders do the same work per request.
struct ShopHandWiring {
    let pool: ShopPool, orderService: ShopOrderService, pricing: any ShopPricing
    let logger: ShopLogger, clock: any ShopClock, idGenerator: ShopIDGenerator

    init(from app: ApplicationContext) {
        pool = try! app.object("pool"); orderService = try! app.object("orderService"); pricing = try! app.object("pricing")
        logger = try! app.object("logger"); clock = try! app.object("clock"); idGenerator = try! app.object("idGenerator")
    }

    /// Handles requests `first..<first + count` by hand: the objects made, the handler run, the
    /// unit of work disposed.
    @inline(__always)
    func run(from first: Int, count: Int) -> Int {
        var total = 0
        for i in first..<first + count {
            let request = ShopRequest(id: i, path: "/checkout", items: 3)
            let unitOfWork = ShopUnitOfWork(connection: pool.lease())
            let handler = ShopHandCheckoutHandler(
                request: request, session: ShopSession(request: request), unitOfWork: unitOfWork, orderService: orderService,
                pricing: pricing, logger: logger, clock: clock, coupon: nil, maxItems: 50, traceID: ShopTraceID(value: idGenerator.make()))
            total &+= handler.handle()
            blackHole(handler)
            unitOfWork.dispose()
        }
        return total
    }
}

/// Handles requests `first..<first + count` through a child context each: built, its handler
/// looked up and run, closed (which disposes the unit of work).
@inline(never)
func projectShopRequests(_ app: ApplicationContext, from first: Int, count: Int) -> Int {
    var total = 0
    for i in first..<first + count {
        let scope = try! ApplicationContext(ShopRequestFactory(request: ShopRequest(id: i, path: "/checkout", items: 3)), parent: app)
        let handler = try! scope.object("handler", as: ShopCheckoutHandler.self)
        total &+= handler.handle()
        blackHole(handler)
        try! scope.close()
    }
    return total
}

/// The shop's application, every singleton a request uses made (as a server that has served
/// its first request).
func makeShopApp() -> ApplicationContext {
    let app = try! ApplicationContext(ShopAppFactory())
    _ = projectShopRequests(app, from: 0, count: 1)
    return app
}

/// `backend`: the shop's request through a child context against the same request by hand.
func backendRequests(_ report: Report) {
    let app = makeShopApp()
    let byHand = ShopHandWiring(from: app)
    report.measure("backend", unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in blackHole(ShopTotal(byHand.run(from: 0, count: n))) },
        .nsPerOp("project", ops: 10_000) { n in blackHole(ShopTotal(projectShopRequests(app, from: 0, count: n))) },
    ])
    let pool: ShopPool = try! app.object("pool")
    precondition(pool.leased == 0, "backend: a request's connection was not given back: its unit of work was not disposed")
}

/// A sum kept so the optimiser cannot drop the requests' work.
final class ShopTotal { let value: Int; init(_ value: Int) { self.value = value } }
