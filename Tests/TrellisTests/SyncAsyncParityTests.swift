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

// MARK: The same failures, blocking or awaited

private struct ParityFailure: Error, CustomStringConvertible {
    var description: String { "broken on purpose" }
}

private final class ParityNeedsMissing {
    @Inject var missing: ParityReport
}

private final class ParityCycleA {
    @Inject("cycleB") var b: ParityCycleB
}

private final class ParityCycleB {
    @Inject("cycleA") var a: ParityCycleA
    init() {}
}

private struct ParityFailingFactory: ObjectFactory {
    var contextName: String { "Failing" }
    var definitions: Definitions {
        createSingleton("throws") { () throws -> ParityReport in throw ParityFailure() }
        createSingleton("throwsInside") { r in ParityRepository(database: try r.object("throws")) }
        createSingleton("asksUnknown") { r in ParityRepository(database: try r.object("nowhere")) }
        createSingleton("wrongType") { r in ParityRepository(database: try r.object("report")) }
        createSingleton("report") { ParityReport() }
        createSingleton("loopA") { r in ParityRepository(database: try r.object("loopB")) }
        createSingleton("loopB") { r in ParityDatabase(config: try r.object("loopC")) }
        createPrototype("loopC") { r -> ParityConfig in _ = try r.object("loopA", as: ParityRepository.self); return ParityConfig(DisposalLog()) }
        createPrototype("selfish") { r -> ParityReport in try r.object("selfish") }
        createSingleton("needsMissing") { ParityNeedsMissing() }
        createPrototype("prototypeNeedsMissing") { ParityNeedsMissing() }
        createPrototype("cycleA") { ParityCycleA() }
        createPrototype("cycleB") { ParityCycleB() }
    }
}

/// What a blocking lookup of `key` as `T` in a fresh context throws (synchronous: in an async
/// function Swift would pick the awaited form).
private func blockingFailure<T>(_ key: String, as _: T.Type) -> String? {
    do {
        _ = try ApplicationContext(ParityFailingFactory()).object(key, as: T.self)
        return nil
    } catch {
        return String(describing: error)
    }
}

/// What an awaited lookup of `key` as `T` in a fresh context throws.
private func awaitedFailure<T>(_ key: String, as _: T.Type) async -> String? {
    do {
        _ = try await ApplicationContext(ParityFailingFactory()).object(key, as: T.self)
        return nil
    } catch {
        return String(describing: error)
    }
}

extension SyncAsyncParityTests {
    @Test(arguments: ["throws", "throwsInside", "asksUnknown", "wrongType", "loopA", "loopC", "selfish", "needsMissing", "prototypeNeedsMissing", "cycleA", "nowhere"])
    func awaitedLookupsFailWithTheSameErrorAsBlockingOnes(key: String) async throws {
        // Docs/Diagnostics.md, "Errors": the message names the key, the context and the path.
        let blocking = try #require(blockingFailure(key, as: AnyObject.self))
        let awaited = await awaitedFailure(key, as: AnyObject.self)
        #expect(awaited == blocking)
    }

    @Test func anAwaitedLookupAsTheWrongTypeFailsAsABlockingOneDoes() async throws {
        let blocking = try #require(blockingFailure("report", as: ParityConfig.self))
        #expect(await awaitedFailure("report", as: ParityConfig.self) == blocking)
    }
}

/// A context of the failing factory, built (and closed, if asked) synchronously.
private func failingContext(closed: Bool = false) throws -> ApplicationContext {
    let context = try ApplicationContext(ParityFailingFactory())
    if closed { try context.close() }
    return context
}

/// What a blocking `step` throws, described.
private func blockingFailure(_ step: () throws -> Void) -> String? {
    do { try step(); return nil } catch { return String(describing: error) }
}

extension SyncAsyncParityTests {
    @Test func awaitedLookupsInAClosedContextFailAsBlockingOnes() async throws {
        let context = try failingContext(closed: true)
        let blocking = try #require(blockingFailure { _ = try context.object("report", as: ParityReport.self) })
        do { _ = try await context.object("report", as: ParityReport.self); Issue.record("no error") } catch { #expect(String(describing: error) == blocking) }
    }

    @Test func awaitedLookupsByTypeFailAsBlockingOnes() async throws {
        let context = try failingContext()
        let none = try #require(blockingFailure { _ = try context.object(of: ParityCycleB.self) })
        do { _ = try await context.object(of: ParityCycleB.self); Issue.record("no error") } catch { #expect(String(describing: error) == none) }
        let blockingThrow = try #require(blockingFailure { _ = try context.object(of: ParityRepository.self) })
        do { _ = try await context.object(of: ParityRepository.self); Issue.record("no error") } catch { #expect(String(describing: error) == blockingThrow) }
    }

    @Test func anAwaitedInjectionFailsAsABlockingOneDoes() async throws {
        let context = try failingContext()
        let blocking = try #require(blockingFailure { try context.inject(into: ParityNeedsMissing()) })
        do { try await context.inject(into: ParityNeedsMissing()); Issue.record("no error") } catch { #expect(String(describing: error) == blocking) }
    }
}

/// The findings of a blocking validation of the failing factory, described.
private func blockingValidation() -> String {
    String(describing: ApplicationContext.validate(ParityFailingFactory()))
}

extension SyncAsyncParityTests {
    @Test func anAwaitedValidationOfSynchronousDefinitionsFindsWhatABlockingOneFinds() async {
        // Docs/Testing.md, "Validate the factory": every definition made once in a scratch context, and
        // every problem reported; for synchronous definitions, awaiting changes nothing.
        let blocking = blockingValidation()
        #expect(blocking.contains("loopA"))
        #expect(blocking.contains("nowhere"))
        #expect(String(describing: await ApplicationContext.validate(ParityFailingFactory())) == blocking)
    }
}

// MARK: The same start, blocking or awaited

private final class ParityPlugin {
    @Inject var config: ParityConfig
    @Inject var repository: ParityRepository
}

private struct ParityEagerFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("config") { [log] in ParityConfig(log) }
        createSingleton("database") { r in ParityDatabase(config: try r.object("config")) }
        createPrototype("repository") { r in ParityRepository(database: try r.object("database")) }
        createEagerSingleton("plugin") { ParityPlugin() }
        createEagerSingleton("audit") { r in ParityDatabase(config: try r.object("config")) }.dependsOn("database")
    }
}

/// The keys of a start-up report's entries with what each pulled in (not the critical path,
/// which follows the measured durations).
private func startupShape(_ report: StartupReport) -> [String] {
    report.entries.map { "\($0.key) <- \($0.pulledIn)" }
}

/// A graph without what follows the measured durations: the start-up times in its labels and
/// the critical path drawn in bold.
private func graphWithoutTimings(_ graph: String) -> String {
    graphWithoutDurations(graph).replacing(" [style=bold, penwidth=2.5]", with: "").replacing(", style=bold, penwidth=2.5]", with: "]")
}

/// A context of the eager factory started synchronously, its start-up's shape and its graph.
private func blockingStart() throws -> (shape: [String], graph: String) {
    let context = try ApplicationContext(ParityEagerFactory(log: DisposalLog()))
    return (startupShape(context.startupReport), graphWithoutTimings(context.graph()))
}

extension SyncAsyncParityTests {
    @Test func anAwaitedStartOfSynchronousEagerSingletonsReportsWhatABlockingOneReports() async throws {
        // Docs/Diagnostics.md, "The startup report": each eager singleton with what it pulled in.
        let blocking = try blockingStart()
        #expect(blocking.shape.count == 3)
        #expect(!blocking.graph.contains("penwidth"))
        let context = try await ApplicationContext(ParityEagerFactory(log: DisposalLog()))
        #expect(startupShape(context.startupReport) == blocking.shape)
        #expect(graphWithoutTimings(context.graph()) == blocking.graph)
    }
}

// MARK: The same answers, blocking or awaited

private protocol ParityNamed: AnyObject {}
extension ParityReport: ParityNamed {}

/// What a blocking lookup of `key` as `T` answers in `context`: the value's type, `nil`, or the
/// error's message.
private func blockingAnswer<T>(_ context: ApplicationContext, _ key: String, as _: T.Type) -> String {
    do { return String(describing: try context.object(key, as: T.self)) } catch { return "error: \(error)" }
}

/// What an awaited lookup of `key` as `T` answers in `context`.
private func awaitedAnswer<T>(_ context: ApplicationContext, _ key: String, as _: T.Type) async -> String {
    do { return String(describing: try await context.object(key, as: T.self)) } catch { return "error: \(error)" }
}

extension SyncAsyncParityTests {
    @Test func awaitedLookupsAnswerAsBlockingOnesForEveryFormOfTheAskedType() async throws {
        // The reference of `object(_:as:)`: the object as the asked type (itself, an optional of
        // it, a protocol it adopts, `AnyObject`), else `typeMismatch`; a name nothing answers to
        // is `noSuchObject`, asked as an optional too. Made or not yet, by key or default alias.
        let context = try failingContext()
        let made = try failingContext()
        _ = blockingAnswer(made, "report", as: ParityReport.self)
        for context in [context, made] {
            #expect(await awaitedAnswer(context, "report", as: ParityReport.self) == blockingAnswer(context, "report", as: ParityReport.self))
            #expect(await awaitedAnswer(context, "report", as: ParityReport?.self) == blockingAnswer(context, "report", as: ParityReport?.self))
            #expect(await awaitedAnswer(context, "report", as: (any ParityNamed).self) == blockingAnswer(context, "report", as: (any ParityNamed).self))
            #expect(await awaitedAnswer(context, "report", as: AnyObject.self) == blockingAnswer(context, "report", as: AnyObject.self))
            #expect(await awaitedAnswer(context, "REPORT", as: ParityReport.self) == blockingAnswer(context, "REPORT", as: ParityReport.self))
            #expect(await awaitedAnswer(context, "nowhere", as: ParityReport?.self) == blockingAnswer(context, "nowhere", as: ParityReport?.self))
            #expect(await awaitedAnswer(context, "report", as: ParityConfig?.self) == blockingAnswer(context, "report", as: ParityConfig?.self))
            #expect(await awaitedAnswer(context, "report", as: Int.self) == blockingAnswer(context, "report", as: Int.self))
        }
    }
}
