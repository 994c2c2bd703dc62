import Testing
import Trellis

// The synchronous and the awaited forms of a lookup take the same steps and differ only in how
// they wait (Docs/Async.md, "The async forms"): the same lookups must leave the same record of
// what depends on what, in the graph (Docs/Diagnostics.md, "The dependency graph") and in the
// disposal order (Docs/Lifecycle.md).

private protocol ParityService: AnyObject {}

private final class ParityConfig: Disposable, Sendable {
    let log: DisposalLog
    init(_ log: DisposalLog) { self.log = log }
    func dispose() { log.record("config") }
}

private final class ParityDatabase: Disposable, Sendable {
    let config: ParityConfig
    init(config: ParityConfig) { self.config = config }
    func dispose() { config.log.record("database") }
}

private final class ParityRepository {
    let database: ParityDatabase
    init(database: ParityDatabase) { self.database = database }
}

private final class ParityReport {}

private final class ParityOrders: ParityService {
    @Inject var repository: ParityRepository
    @Inject var config: ParityConfig
    @Inject var fraud: ParityReport?
    @Inject var retries: Int = 3
    @Inject(.lazy) var report: ParityReport
}

private final class ParityHandler: Disposable {
    @Inject("orders") var service: any ParityService
    @Inject var user: ParityUser
    func dispose() { (service as? ParityOrders)?.config.log.record("handler") }
}

private final class ParityUser {}

private struct ParityAppFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "App" }
    var definitions: Definitions {
        createSingleton("config") { [log] in ParityConfig(log) }
        createSingleton("database") { r in ParityDatabase(config: try r.object("config")) }
        createPrototype("repository") { r in ParityRepository(database: try r.object("database")) }
        createPrototype("orders") { () -> any ParityService in ParityOrders() }
        createSingleton("report") { ParityReport() }
    }
}

private struct ParityRequestFactory: ObjectFactory {
    var contextName: String { "Request" }
    var definitions: Definitions {
        createSingleton("user") { ParityUser() }
        createSingleton("handler") { ParityHandler() }
    }
}

/// An app and a request context of it, and the log their disposals write to.
private struct ParityContexts {
    let log = DisposalLog()
    let app: ApplicationContext
    let request: ApplicationContext

    init() throws {
        app = try ApplicationContext(ParityAppFactory(log: log))
        request = try ApplicationContext(ParityRequestFactory(), parent: app)
    }

    /// The graphs of both contexts, then what closing both disposed, in order (synchronous
    /// functions: in an async one, Swift would pick the awaited forms).
    func finish() throws -> (request: String, app: String, disposed: [String]) {
        let graphs = (graphWithoutDurations(request.graph()), graphWithoutDurations(app.graph()))
        try request.close()
        try app.close()
        return (graphs.0, graphs.1, log.keys)
    }

    /// The lookups, blocking.
    func lookUpBlocking() throws {
        #expect(try request.objects(of: ParityOrders.self).count == 1)
        let handler = try request.object("handler", as: ParityHandler.self)
        _ = try #require(handler.service as? ParityOrders).report
    }

    /// The same lookups, awaited.
    func lookUpAwaiting() async throws {
        #expect(try await request.objects(of: ParityOrders.self).count == 1)
        let handler = try await request.object("handler", as: ParityHandler.self)
        _ = try await #require(handler.service as? ParityOrders).$report.get()
    }
}

@Suite struct SyncAsyncParityTests {
    @Test func awaitedLookupsRecordTheSameGraphAndDisposalOrderAsBlockingOnes() async throws {
        let first = try ParityContexts()
        try first.lookUpBlocking()
        let blocking = try first.finish()
        let second = try ParityContexts()
        try await second.lookUpAwaiting()
        let awaited = try second.finish()
        #expect(blocking.request.contains(#"[label="service"]"#))
        #expect(blocking.app.contains(#"[label="repository"]"#))
        #expect(blocking.disposed == ["handler", "database", "config"])
        #expect(awaited.request == blocking.request)
        #expect(awaited.app == blocking.app)
        #expect(awaited.disposed == blocking.disposed)
    }
}
