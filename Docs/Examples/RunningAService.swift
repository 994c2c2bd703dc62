// Support for the code of Docs/RunningAService.md, checked by .ci/check-docs: the service's
// objects (bodies left out), and stand-ins for the two declarations of swift-service-lifecycle
// the guide uses, so its blocks compile here without that package.
import Trellis

struct Config: Sendable {
    let port: Int
    static func load() async throws -> Config { Config(port: 8080) }
}

final class DatabasePool: AsyncDisposable, Sendable {
    static func connect(_ config: Config) async throws -> DatabasePool { DatabasePool() }
    func dispose() async { /* close every connection */ }
}

final class Migrations: Sendable {
    init(pool: DatabasePool) { /* bring the schema up to date */ }
}

final class MetricsClient: Disposable, Sendable {
    static func register() async throws -> MetricsClient { MetricsClient() }
    func dispose() { /* send the last batch */ }
}

final class HTTPServer: AsyncDisposable, Sendable {
    init(port: Int, pool: DatabasePool) async throws {}
    /// Serves until `stop()`; calls `handle` for each request.
    func serve(_ handle: @escaping @Sendable (Request) async -> Response) async throws {}
    func stop() async {}
    func dispose() async { await stop() }
}

struct Request: Sendable {
    let path: String
}

struct Response: Sendable {
    let status: Int
    static let ok = Response(status: 200)
    static let serverError = Response(status: 500)
}

final class CartModel: Sendable {
    init(pool: DatabasePool) {}
}

final class RequestHandler: Sendable {
    init(cart: CartModel) {}
    func handle(_ request: Request) async throws -> Response { .ok }
}

// Stand-ins for swift-service-lifecycle (`import ServiceLifecycle` in a real app).

/// swift-service-lifecycle's `Service`: `run()` runs until the service is done or cancelled.
protocol Service: Sendable {
    func run() async throws
}

/// swift-service-lifecycle's `gracefulShutdown()`: returns once a graceful shutdown was
/// triggered (SIGTERM, by the `ServiceGroup`), throws if the task was cancelled.
func gracefulShutdown() async throws {}
