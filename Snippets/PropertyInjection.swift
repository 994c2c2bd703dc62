// Every form of `@Inject`, superclass injection, `InjectionAware`, injecting an object the
// context did not make, singletons referencing each other through properties, and lookup by type.
// Run it with `swift run PropertyInjection`.
import Trellis

// MARK: - Collaborators

final class Clock: Sendable {
    func now() -> String { "09:41" }
}

protocol PaymentGateway: AnyObject, Sendable {
    var name: String { get }
}

final class StripeGateway: PaymentGateway {
    let name = "Stripe"
}

final class PayPalGateway: PaymentGateway {
    let name = "PayPal"
}

final class ReportBuilder: Sendable {
    init() { print("    (ReportBuilder made now)") }
    func build() -> String { "report of 3 orders" }
}

final class Analytics: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

// MARK: - A controller using every form of @Inject

class BaseController {
    @Inject var clock: Clock                          // superclass properties are injected too
}

final class CheckoutController: BaseController, InjectionAware {
    @Inject("paymentGateway") var payments: any PaymentGateway   // explicit key (here an alias)
    @Inject var analytics: Analytics?                 // optional: nil when there is no "analytics"
    @Inject(.lazy) var report: ReportBuilder          // looked up on first access
    @Inject var currency: String = "EUR"              // default kept when there is no "currency"
    @Inject var retries: Int = 3                      // default replaced: the context has "retries"

    func didInject(from context: ApplicationContext) {
        print("    didInject from '\(context.name)': analytics is \(analytics == nil ? "nil, using a default" : "set")")
        if analytics == nil { analytics = Analytics(name: "no-op analytics") }
    }
}

// MARK: - Two singletons that reference each other through properties

final class OrderService {
    @Inject var inventory: InventoryService
}

final class InventoryService {
    @Inject var orders: OrderService
}

// MARK: - The factory

struct ShopFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { Clock() }
        createSingleton("stripe") { StripeGateway() as any PaymentGateway }.aliases("paymentGateway")
        createSingleton("paypal") { PayPalGateway() }
        createSingleton("report") { ReportBuilder() }
        createSingleton("retries") { 5 }
        createPrototype("checkout") { CheckoutController() }
        createSingleton("orders") { OrderService() }
        createSingleton("inventory") { InventoryService() }
    }
}

let shop = try ApplicationContext(ShopFactory())

print("A controller made by the context:")
let checkout: CheckoutController = try shop.object("checkout")
print("  clock (superclass):   \(checkout.clock.now())")
print("  payments (by key):    \(checkout.payments.name)")
print("  analytics (optional): \(checkout.analytics?.name ?? "nil")")
print("  currency (default):   \(checkout.currency)")
print("  retries (injected):   \(checkout.retries)")
print("  report (lazy), first access:")
print("  report:               \(checkout.report.build())")

print("\nA controller made elsewhere (a storyboard, a test), injected afterwards:")
let external = CheckoutController()
external.currency = "CHF"                             // already set: left alone
try shop.inject(into: external)
print("  payments: \(external.payments.name), currency: \(external.currency)")

print("\nSingletons referencing each other through properties:")
let orders: OrderService = try shop.object("orders")
print("  orders.inventory.orders is orders: \(orders.inventory.orders === orders)")

print("\nLookup by type (a 'checkout' is made once per queried type to learn what it is):")
print("  object(of: Clock.self) is 'clock': \(try shop.object(of: Clock.self) === shop.object("clock", as: Clock.self))")
let gateways = try shop.objects(of: (any PaymentGateway).self)
print("  objects(of: PaymentGateway.self): \(gateways.map(\.name))")
do {
    _ = try shop.object(of: (any PaymentGateway).self)
} catch {
    print("  object(of: PaymentGateway.self): \(error)")
}
