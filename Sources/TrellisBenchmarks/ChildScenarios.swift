import Trellis

// `child`'s objects (as /work/shared/bench's Model.swift): what one request's context holds, and
// the handler wired from it and from the application's context.
final class RequestID: Sendable { let value: Int; init(_ value: Int) { self.value = value } }
final class User: Sendable { let name = "alice" }
final class UnitOfWork { var changes = 0 }
final class Handler: Sendable {
    let requestID: RequestID
    let user: User
    let config: Config
    let database: Database
    init(requestID: RequestID, user: User, config: Config, database: Database) {
        self.requestID = requestID
        self.user = user
        self.config = config
        self.database = database
    }
}

/// The application behind `child`: `config` and `database` and 198 more singletons.
struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("config") { Config() }
        createSingleton("database") { r in Database(config: try r.object("config")) }
        for i in 0..<198 { createSingleton("leaf\(i)") { Leaf(i) } }
    }
}

/// One request's child context: 2 singletons (one holding the request's number) and
/// 2 prototypes; `handler` pulls 2 objects from this context and 2 from the application's.
struct RequestFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createSingleton("requestID") { [id] in RequestID(id) }
        createSingleton("user") { User() }
        createPrototype("unitOfWork") { UnitOfWork() }
        createPrototype("handler") { r in
            Handler(requestID: try r.object("requestID"), user: try r.object("user"),
                    config: try r.object("config"), database: try r.object("database"))
        }
    }
}

/// The application's context with `config` and `database` made.
func makeAppContext() -> ApplicationContext {
    let app = try! ApplicationContext(AppFactory())
    blackHole(try! app.object("database", as: Database.self))
    return app
}

/// `AppFactory` in the keyed baseline, `config` and `database` made.
func makeBaselineApp() -> KeyedBaseline {
    let c = KeyedBaseline()
    c.singleton("config") { _ in Config() }
    c.singleton("database") { c in Database(config: c.resolve("config")) }
    for i in 0..<198 { c.singleton("leaf\(i)") { _ in Leaf(i) } }
    let _: Database = c.resolve("database")
    return c
}

/// `RequestFactory` in the keyed baseline: a child container of `app`.
func makeBaselineRequest(_ id: Int, app: KeyedBaseline) -> KeyedBaseline {
    let c = KeyedBaseline(parent: app)
    c.singleton("requestID") { _ in RequestID(id) }
    c.singleton("user") { _ in User() }
    c.prototype("unitOfWork") { _ in UnitOfWork() }
    c.prototype("handler") { c in
        Handler(requestID: c.resolve("requestID"), user: c.resolve("user"),
                config: c.resolve("config"), database: c.resolve("database"))
    }
    return c
}

/// One request with the objects wired by hand: the request's own three objects.
@inline(__always)
func handlerByHand(_ id: Int, config: Config, database: Database) -> Handler {
    Handler(requestID: RequestID(id), user: User(), config: config, database: database)
}

/// `child`: per request, a child context of 4 definitions on a parent of 200 (the request scope
/// of a server), `handler` resolved from it, the child dropped.
///
/// `direct` makes the request's three objects by hand from the application's two; `baseline`
/// registers the same 4 closures in a new keyed-baseline child of the baseline application
/// (a `Mutex`-dictionary container, its parent asked for what it lacks) and resolves `handler`.
/// So `project/direct` is the price of a request scope, and `project/baseline` how a child
/// context compares with the least a keyed child container costs to build and use.
func childRequests(_ report: Report) {
    let app = makeAppContext()
    let baseApp = makeBaselineApp()
    let config: Config = try! app.object("config")
    let database: Database = try! app.object("database")
    report.measure("child", unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in
            for i in 0..<n { blackHole(handlerByHand(i, config: config, database: database)) }
        },
        .nsPerOp("baseline", ops: 10_000) { n in
            for i in 0..<n { let x: Handler = makeBaselineRequest(i, app: baseApp).resolve("handler"); blackHole(x) }
        },
        .nsPerOp("project", ops: 10_000) { n in
            for i in 0..<n { blackHole(try! ApplicationContext(RequestFactory(id: i), parent: app).object("handler", as: Handler.self)) }
        },
    ])
}

/// `RequestFactory` with its `requestID` made as the context starts (an eager singleton).
struct EagerRequestFactory: ObjectFactory {
    let id: Int
    var definitions: Definitions {
        createEagerSingleton("requestID") { [id] in RequestID(id) }
        createSingleton("user") { User() }
        createPrototype("unitOfWork") { UnitOfWork() }
        createPrototype("handler") { r in
            Handler(requestID: try r.object("requestID"), user: try r.object("user"),
                    config: try r.object("config"), database: try r.object("database"))
        }
    }
}

/// `child-bytype`: `child` with the handler looked up by type (`object(of: Handler.self)`), as
/// an app that names its handlers by class would; `by-key` is `child project`, same run.
///
/// A lookup by type asks the child's own 4 definitions and takes the application's answer,
/// which the application keeps (Docs/Injection.md, "Lookup by type").
func childByTypeRequests(_ report: Report) {
    childVariant(report, "child-bytype", reference: "by-key") { app, i in
        try! ApplicationContext(RequestFactory(id: i), parent: app).object(of: Handler.self)
    }
}

/// `child-eager`: `child` with the request's `requestID` an eager singleton, made as the context
/// starts (and timed for its start-up report); `lazy` is `child project`, same run.
func childEagerRequests(_ report: Report) {
    childVariant(report, "child-eager", reference: "lazy") { app, i in
        try! ApplicationContext(EagerRequestFactory(id: i), parent: app).object("handler", as: Handler.self)
    }
}

/// A variant of `child`: `direct` and `child`'s project loop (as `reference`) against `request`,
/// one request's handler from a new child of the application.
private func childVariant(_ report: Report, _ scenario: String, reference: String, _ request: @escaping (ApplicationContext, Int) -> Handler) {
    let app = makeAppContext()
    let config: Config = try! app.object("config")
    let database: Database = try! app.object("database")
    report.measure(scenario, unit: "ns/request", [
        .nsPerOp("direct", ops: 100_000) { n in
            for i in 0..<n { blackHole(handlerByHand(i, config: config, database: database)) }
        },
        .nsPerOp(reference, ops: 10_000) { n in
            for i in 0..<n { blackHole(try! ApplicationContext(RequestFactory(id: i), parent: app).object("handler", as: Handler.self)) }
        },
        .nsPerOp("project", ops: 10_000) { n in
            for i in 0..<n { blackHole(request(app, i)) }
        },
    ])
}
