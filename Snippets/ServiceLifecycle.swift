// A service's life, start to graceful shutdown: an async start whose critical path is printed,
// migrations ordered before the server with `dependsOn`, a weak singleton shared while held, a
// child context per request, and a shutdown bounded by `close(timeout:)` although one
// disposal hangs. Docs/RunningAService.md walks through it.
//
//   swift run ServiceLifecycle
import Trellis

// MARK: - The objects of a small HTTP-style server

struct Config: Sendable {
    let port: Int
    static func load() async throws -> Config {
        try await Task.sleep(for: .milliseconds(20))           // a file, a secrets service…
        return Config(port: 8080)
    }
}

final class DatabasePool: AsyncDisposable, Sendable {
    static func connect(_ config: Config) async throws -> DatabasePool {
        try await Task.sleep(for: .milliseconds(30))           // opening the connections
        return DatabasePool()
    }
    func dispose() async { print("  disposed the database pool") }
}

/// Runs the schema migrations when made; the server must not start before.
final class Migrations: Sendable {
    init(pool: DatabasePool) { print("  migrations ran") }
}

final class MetricsClient: Disposable, Sendable {
    static func register() async throws -> MetricsClient {
        try await Task.sleep(for: .milliseconds(10))           // independent of the others
        return MetricsClient()
    }
    func dispose() { print("  flushed the metrics") }
}

/// Exports traces; its shutdown waits for a collector that never answers.
final class TraceExporter: AsyncDisposable, Sendable {
    func dispose() async {
        print("  trace exporter: flushing to a collector that does not answer…")
        try? await Task.sleep(for: .seconds(3600))
    }
}

final class HTTPServer: AsyncDisposable, Sendable {
    let port: Int
    init(port: Int, pool: DatabasePool, tracer: TraceExporter) async throws {
        self.port = port
        try await Task.sleep(for: .milliseconds(5))            // binding the socket
    }
    func dispose() async { print("  stopped accepting connections") }
}

/// Shared by every request in flight; made again once none holds it.
final class RateLimiter: Sendable {}

final class RequestHandler: Disposable, Sendable {
    let limiter: RateLimiter
    init(limiter: RateLimiter) { self.limiter = limiter }
    func handle(_ path: String) -> String { "200 OK \(path)" }
    func dispose() {}
}

// MARK: - The factories

struct ServiceFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { try await Config.load() }
        createSingleton("pool") { r in try await DatabasePool.connect(try await r.object("config", as: Config.self)) }
        createSingleton("migrations") { r in Migrations(pool: try await r.object("pool")) }
        createEagerSingleton("metrics") { try await MetricsClient.register() }
        createSingleton("tracer") { TraceExporter() }
        createEagerSingleton("server") { r in
            try await HTTPServer(port: try await r.object("config", as: Config.self).port,
                                 pool: try await r.object("pool"), tracer: try r.object("tracer"))
        }.dependsOn("migrations")                                  // made before, disposed after
        createWeakSingleton("limiter") { RateLimiter() }
    }
}

struct RequestFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("handler") { r in RequestHandler(limiter: try r.object("limiter")) }
    }
}

// MARK: - The life of the service

/// Top-level code picks the synchronous overloads, so the async forms are called from here.
func runService() async throws {
    print("starting:")
    let app = try await ApplicationContext(ServiceFactory())
    print("\nstartup report:")
    print(app.startupReport)
    print("\ncritical path:", app.startupReport.criticalPath)

    // A child context per request, closed when the request ends.
    print("\nserving:")
    for path in ["/", "/cart"] {
        let request = try await ApplicationContext(RequestFactory(), parent: app)
        let handler: RequestHandler = try await request.object("handler")
        print(" ", handler.handle(path))
        try await request.close()
    }

    // On SIGTERM: stop within a deadline, whatever a disposal does.
    print("\nshutting down (SIGTERM), at most 0.2 s per disposal:")
    do {
        try await app.close(timeout: .milliseconds(200))
    } catch {
        // `disposalFailed` lists what threw, and what was left running when the time was up.
        print("  \(error)")
    }
    do {
        _ = try await app.object("config", as: Config.self)
    } catch {
        print("after close:", error)
    }
}

try await runService()
