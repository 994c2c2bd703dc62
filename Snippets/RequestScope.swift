// The request-scope pattern: one app context for the whole process, closed at shutdown, and a
// child context per request, closed when the request ends, which disposes the request's unit of
// work. Simulates 1,000 requests and prints what was disposed and what a request costs.
//
//   swift run RequestScope                 # a debug build
//   swift run -c release RequestScope      # the cost in a release build
import Synchronization
import Trellis

// MARK: - App-wide objects: made once, disposed at shutdown

final class Config: Sendable {
    let greeting = "Hello"
    let poolSize = 8
}

/// Hands out connections; checks at shutdown that every one came back.
final class ConnectionPool: Disposable, Sendable {
    let size: Int
    private let leased = Atomic<Int>(0)
    private let out = Atomic<Int>(0)

    init(config: Config) { size = config.poolSize }

    func lease() -> Connection {
        let number = leased.add(1, ordering: .relaxed).newValue
        out.add(1, ordering: .relaxed)
        return Connection(number: number, pool: self)
    }

    func giveBack(_ connection: Connection) { out.subtract(1, ordering: .relaxed) }

    func dispose() {
        print("  disposed ConnectionPool: \(leased.load(ordering: .relaxed)) connections leased, \(out.load(ordering: .relaxed)) still out")
    }
}

final class Connection: Sendable {
    let number: Int
    let pool: ConnectionPool
    init(number: Int, pool: ConnectionPool) {
        self.number = number
        self.pool = pool
    }
}

final class Metrics: Disposable, Sendable {
    private let handled = Atomic<Int>(0)
    private let disposedUnits = Atomic<Int>(0)

    func requestHandled() { handled.add(1, ordering: .relaxed) }
    func unitOfWorkDisposed() { disposedUnits.add(1, ordering: .relaxed) }
    var unitsOfWorkDisposed: Int { disposedUnits.load(ordering: .relaxed) }

    func dispose() {
        print("  disposed Metrics: \(handled.load(ordering: .relaxed)) requests handled")
    }
}

/// Made on the first request (a lazy singleton), so it is the latest made and disposed first.
final class Templates: Disposable, Sendable {
    let greeting: String
    init(config: Config) { greeting = config.greeting }
    func render(_ name: String) -> String { "\(greeting), \(name)!" }
    func dispose() { print("  disposed Templates") }
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { Config() }
        createEagerSingleton("pool") { r in ConnectionPool(config: try r.object("config")) }
        createEagerSingleton("metrics") { Metrics() }
        createSingleton("templates") { r in Templates(config: try r.object("config")) }
    }
}

// MARK: - Per-request objects: made in the request's child context, disposed when it closes

struct RequestInfo: Sendable {
    let id: Int
    let user: String
}

/// Holds a connection for the request and gives it back when the request's context closes.
final class UnitOfWork: Disposable, Sendable {
    let connection: Connection
    let metrics: Metrics
    init(pool: ConnectionPool, metrics: Metrics) {
        connection = pool.lease()
        self.metrics = metrics
    }

    func dispose() {
        connection.pool.giveBack(connection)
        metrics.unitOfWorkDisposed()
    }
}

/// A prototype that uses app objects (templates, metrics) and request objects (the request, its
/// unit of work).
final class Handler: Sendable {
    let request: RequestInfo
    let unitOfWork: UnitOfWork
    let templates: Templates
    let metrics: Metrics
    init(request: RequestInfo, unitOfWork: UnitOfWork, templates: Templates, metrics: Metrics) {
        self.request = request
        self.unitOfWork = unitOfWork
        self.templates = templates
        self.metrics = metrics
    }

    func respond() -> String {
        metrics.requestHandled()
        return "#\(request.id) on connection \(unitOfWork.connection.number): \(templates.render(request.user))"
    }
}

struct RequestFactory: ObjectFactory {
    let request: RequestInfo
    var definitions: Definitions {
        createSingleton("request") { [request] in request }
        createSingleton("unitOfWork") { r in UnitOfWork(pool: try r.object("pool"), metrics: try r.object("metrics")) }
        createPrototype("handler") { r in
            Handler(request: try r.object("request"), unitOfWork: try r.object("unitOfWork"),
                    templates: try r.object("templates"), metrics: try r.object("metrics"))
        }
    }
}

// MARK: - The server

let app = try ApplicationContext(AppFactory())
let metrics: Metrics = try app.object("metrics")

/// One request: its own child context, closed when the request ends.
func handle(id: Int) throws -> String {
    let request = try ApplicationContext(RequestFactory(request: RequestInfo(id: id, user: "user\(id % 10)")), parent: app)
    defer { try? request.close() }
    let handler: Handler = try request.object("handler")
    return handler.respond()
}

let requests = 1_000
let clock = ContinuousClock()
var last = ""
let elapsed = try clock.measure {
    for id in 1...requests { last = try handle(id: id) }
}
let perRequest = elapsed / requests

/// `d` in microseconds, one decimal.
func microseconds(_ d: Duration) -> String {
    let (seconds, attoseconds) = d.components
    let tenths = Int((Double(seconds) * 1e7 + Double(attoseconds) / 1e11).rounded())
    return "\(tenths / 10).\(tenths % 10) µs"
}

print("last response: \(last)")
print("\(requests) requests: \(metrics.unitsOfWorkDisposed) units of work disposed (one per request, when its context closed)")
print("cost per request: \(microseconds(perRequest)) (child context, handler with 4 lookups, close)")

// After close, the request's context refuses lookups.
let closed = try ApplicationContext(RequestFactory(request: RequestInfo(id: 0, user: "late")), parent: app)
try closed.close()
do {
    _ = try closed.object("handler", as: Handler.self)
} catch {
    print("after close: \(error)")
}

print("shutdown:")
try app.close()
