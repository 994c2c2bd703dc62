import Trellis

// `request` (as /work/shared/bench's `request`): a request as an app writes it — a handler and
// a service filled by `@Inject`, from a child context and its application — against the same
// objects filled by hand.

final class Metrics: Sendable {}
final class Clock: Sendable {}
final class Mailer: Sendable {}
final class MonthlyReport {}

/// Three properties in a superclass, as an app's base class for its services has.
class InjectedBase {
    @Inject var logger: Logger
    @Inject var metrics: Metrics
    @Inject var clock: Clock
}

/// A service with a superclass, a default, an optional nobody answers to and a lazy property.
final class InjectedService: InjectedBase {
    @Inject var repository: Repository
    @Inject var mailer: Mailer
    @Inject var retryLimit: Int = 3
    @Inject var fraud: Leaf?
    @Inject(.lazy) var report: MonthlyReport
}

/// A handler with six properties, four from the request's context.
final class InjectedHandler {
    @Inject var requestID: RequestID
    @Inject var user: User
    @Inject var unitOfWork: UnitOfWork
    @Inject("orderService") var service: InjectedService
    @Inject var logger: Logger
    @Inject var config: Config
}

/// The application of `request`: 8 singletons, the service as a prototype, 190 more singletons.
struct RequestAppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("config") { Config() }
        createSingleton("database") { r in Database(config: try r.object("config")) }
        createSingleton("repository") { r in Repository(db: try r.object("database")) }
        createSingleton("logger") { Logger() }
        createSingleton("metrics") { Metrics() }
        createSingleton("clock") { Clock() }
        createSingleton("mailer") { Mailer() }
        createSingleton("report") { MonthlyReport() }
        createPrototype("orderService") { InjectedService() }
        for i in 0..<190 { createSingleton("leaf\(i)") { Leaf(i) } }
    }
}

/// One request's context: its number, its user, a unit of work and the handler.
struct RequestScopeFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createSingleton("requestID") { [id] in RequestID(id) }
        createSingleton("user") { User() }
        createSingleton("unitOfWork") { UnitOfWork() }
        createSingleton("handler") { InjectedHandler() }
    }
}

/// The same handler and service as plain optionals, filled by hand.
final class HandService {
    var logger: Logger?, metrics: Metrics?, clock: Clock?
    var repository: Repository?, mailer: Mailer?, retryLimit = 3, fraud: Leaf?, report: MonthlyReport?
}

final class HandHandler {
    var requestID: RequestID?, user: User?, unitOfWork: UnitOfWork?, service: HandService?
    var logger: Logger?, config: Config?
}

/// `request`: per request, a child context of 4 singletons under a 200-definition application,
/// its handler looked up (6 `@Inject` properties, one of them the application's service
/// prototype with 8), the child closed. `direct` makes the same objects and sets the same
/// properties by hand (the lazy one left for its first read, as the context leaves it), keeping
/// only the service, as `../shared/bench/run` does; `direct-kept` keeps the handler, so that all
/// five objects are made (through the service alone the optimiser proves some of them dead and
/// makes none: `allocations request-objects`, and Docs/Performance.md, "What `request direct`
/// makes"). `project/direct-kept` is what a request scope with injection costs an app.
func requests(_ report: Report) {
    let app = makeRequestApp()
    let byHand = HandWiredRequests(from: app)
    report.measure("request", unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in byHand.run(from: 0, count: n) },
        .nsPerOp("direct-kept", ops: 100_000) { n in byHand.runKeepingEveryObject(from: 0, count: n) },
        .nsPerOp("project", ops: 10_000) { n in projectRequests(app, from: 0, count: n) },
    ])
}

/// `request-async`: `request`'s loop as an async server handler writes it — the child built with
/// `try await ApplicationContext(…)`, the handler looked up with `try await`, the child closed
/// with `try await close()` — against the synchronous loop in the same rounds (`sync`) and the
/// objects made by hand. A task runs the loop; its one start is amortised over the rounds.
func asyncRequests(_ report: Report) {
    let app = makeRequestApp()
    let byHand = HandWiredRequests(from: app)
    report.measure("request-async", unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in byHand.run(from: 0, count: n) },
        .nsPerOp("sync", ops: 10_000) { n in projectRequests(app, from: 0, count: n) },
        .nsPerOp("project", ops: 10_000) { n in blockingOn { await projectAsyncRequests(app, from: 0, count: n) } },
    ])
}

/// `projectRequests` with `await`: each request context built, its handler looked up and the
/// context closed by the async forms.
@inline(never)
func projectAsyncRequests(_ app: ApplicationContext, from first: Int, count: Int) async {
    for i in first..<first + count {
        let request = try! await ApplicationContext(RequestScopeFactory(id: i), parent: app)
        blackHole(try! await request.object("handler", as: InjectedHandler.self).service)
        try! await request.close()
    }
}

/// Makes `count` request contexts under `app`, numbered from `first`: each built, its handler
/// looked up, closed.
@inline(__always)
func projectRequests(_ app: ApplicationContext, from first: Int, count: Int) {
    for i in first..<first + count {
        let request = try! ApplicationContext(RequestScopeFactory(id: i), parent: app)
        blackHole(try! request.object("handler", as: InjectedHandler.self).service)
        try! request.close()
    }
}

/// The application of `request`, its singletons the requests use made.
func makeRequestApp() -> ApplicationContext {
    warmRequestApp(try! ApplicationContext(RequestAppFactory()))
}

/// `app` with the singletons a request takes from it made.
func warmRequestApp(_ app: ApplicationContext) -> ApplicationContext {
    for key in ["config", "database", "repository", "logger", "metrics", "clock", "mailer"] { blackHole(try! app.object(key, as: AnyObject.self)) }
    return app
}

/// `concurrent-requests`: `request`'s loop on 2 threads at once under one application, as a
/// server handles requests, against the same loop on 1 thread.
///
/// Each request makes its own objects, so nothing is shared but the application, whose
/// singletons are made already: `project/1thread` reads 0.5 (wall time per request, both
/// threads' requests counted) when requests do not slow each other down. Above it is
/// contention: the coordinator lock (a request takes it three times), the reference counts of
/// the application's objects written by both threads, and malloc's. `direct/1thread` is the
/// same ratio for the objects made by hand: the machine's own floor.
func concurrentRequests(_ report: Report) {
    let app = makeRequestApp()
    let byHand = HandWiredRequests(from: app)
    report.measure("concurrent-requests", unit: "ns/request", rounds: 9, [
        .wallNsPerOp("direct-1thread", threads: 1, ops: 400_000, perThread: { thread, n in byHand.run(from: thread &* n, count: n) }),
        .wallNsPerOp("direct", threads: 2, ops: 400_000, perThread: { thread, n in byHand.run(from: thread &* n, count: n) }),
        .wallNsPerOp("project-1thread", threads: 1, ops: 40_000, perThread: { thread, n in projectRequests(app, from: thread &* n, count: n) }),
        .wallNsPerOp("project", threads: 2, ops: 40_000, perThread: { thread, n in projectRequests(app, from: thread &* n, count: n) }),
    ])
}

/// A unit of work that commits when its request's context closes, as a transaction does.
final class Transaction: Disposable {
    var committed = false
    func dispose() { committed = true }
}

/// `InjectedHandler` whose unit of work is a `Transaction`.
final class TransactionHandler {
    @Inject var requestID: RequestID
    @Inject var user: User
    @Inject var unitOfWork: Transaction
    @Inject("orderService") var service: InjectedService
    @Inject var logger: Logger
    @Inject var config: Config
}

/// `RequestScopeFactory` with a transaction for its unit of work.
struct TransactionScopeFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createSingleton("requestID") { [id] in RequestID(id) }
        createSingleton("user") { User() }
        createSingleton("unitOfWork") { Transaction() }
        createSingleton("handler") { TransactionHandler() }
    }
}

/// `request-disposable`: `request` whose unit of work is `Disposable` (disposed when the request's
/// context closes, so the close orders and runs a disposal), against `request`'s own loop in the
/// same run (`request`). `project/request` is what one disposable object costs a request.
func disposableRequests(_ report: Report) {
    requestVariant(report, "request-disposable") { app, i in
        let request = try! ApplicationContext(TransactionScopeFactory(id: i), parent: app)
        blackHole(try! request.object("handler", as: TransactionHandler.self).service)
        try! request.close()
    }
}

/// `request-current`: `request` with each request handled inside `withCurrent` of its context, as
/// Docs/Injection.md shows for a server (objects a handler makes with their plain `init` then
/// resolve from the request), against `request`'s own loop in the same run (`request`).
/// `project/request` is what the binding costs: every `@Inject` wrapper made while a context
/// is current notes it, even those of objects the context then injects.
func currentRequests(_ report: Report) {
    requestVariant(report, "request-current") { app, i in
        let request = try! ApplicationContext(RequestScopeFactory(id: i), parent: app)
        request.withCurrent { blackHole(try! request.object("handler", as: InjectedHandler.self).service) }
        try! request.close()
    }
}

/// A variant of `request`: `request`'s own loop (as `request`) against `handle`, which handles
/// request `i` under the application its own way.
private func requestVariant(_ report: Report, _ scenario: String, _ handle: @escaping (ApplicationContext, Int) -> Void) {
    let app = makeRequestApp()
    report.measure(scenario, unit: "ns/request", [
        .nsPerOp("request", ops: 10_000) { n in projectRequests(app, from: 0, count: n) },
        .nsPerOp("project", ops: 10_000) { n in
            for i in 0..<n { handle(app, i) }
        },
    ])
}
