import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private struct StartFailure: Error, CustomStringConvertible {
    var description: String { "no connection" }
}

/// Weak references to what a start made, so a test can see it was released.
private final class MadeObjects: Sendable {
    private let entries = Guarded<[ConcurrencyWeak]>([])
    func note(_ object: AnyObject, _ label: String) { entries.withLock { $0.append(ConcurrencyWeak(object, label)) } }
    var all: [ConcurrencyWeak] { entries.value }
}

/// Eager singletons made in declaration order; "broken" fails after "config", "pool" and
/// "repository" (which depends on "pool"), and after a lazy "cache" that "repository" pulled in.
private struct FailingSyncStartFactory: ObjectFactory {
    let log: DisposalLog
    let made = MadeObjects()
    var contextName: String { "FailingStart" }

    var definitions: Definitions {
        createEagerSingleton("config") { DisposableProbeDependency(value: "config") }
        createEagerSingleton("pool") { [log, made] () -> DisposableProbe in
            let pool = DisposableProbe("pool", log: log)
            made.note(pool, "pool")
            return pool
        }
        createEagerSingleton("repository") { [log, made] r -> DisposableProbe in
            let repository = DisposableProbe("repository", log: log, dependencies: [try r.object("pool", as: DisposableProbe.self), try r.object("cache", as: DisposableProbe.self)])
            made.note(repository, "repository")
            return repository
        }
        createSingleton("cache") { [log, made] () -> DisposableProbe in
            let cache = DisposableProbe("cache", log: log, failing: "ignored")
            made.note(cache, "cache")
            return cache
        }
        createEagerSingleton("broken") { () throws -> DisposableProbe in throw StartFailure() }
        createEagerSingleton("neverReached") { [log] in DisposableProbe("neverReached", log: log) }
    }
}

/// A synchronous start that made an `AsyncDisposable` (a synchronous closure may return one)
/// before it failed.
private struct FailingSyncStartWithAsyncDisposableFactory: ObjectFactory {
    let log: DisposalLog
    let disposed: ConcurrencyLatch
    var contextName: String { "FailingStart" }

    var definitions: Definitions {
        createEagerSingleton("pool") { [log, disposed] in SignallingAsyncDisposable("pool", log: log, disposed: disposed) }
        createEagerSingleton("cache") { [log] in DisposableProbe("cache", log: log) }
        createEagerSingleton("broken") { () throws -> DisposableProbe in throw StartFailure() }
    }
}

/// As above, but the `AsyncDisposable` `cache` depends on the `Disposable` `pool`, which must
/// then wait for it.
private struct FailingSyncStartWithAsyncDependentFactory: ObjectFactory {
    let log: DisposalLog
    let disposed: ConcurrencyLatch

    var definitions: Definitions {
        createEagerSingleton("pool") { [log] in SignallingDisposable("pool", log: log, disposed: disposed) }
        createEagerSingleton("cache") { [log] r in
            _ = try r.object("pool", as: SignallingDisposable.self)
            return SignallingAsyncDisposable("cache", log: log, disposed: ConcurrencyLatch(count: 1))
        }
        createEagerSingleton("broken") { () throws -> DisposableProbe in throw StartFailure() }
    }
}

private final class SignallingDisposable: Disposable, Sendable {
    let key: String
    let log: DisposalLog
    let disposed: ConcurrencyLatch
    init(_ key: String, log: DisposalLog, disposed: ConcurrencyLatch) {
        self.key = key
        self.log = log
        self.disposed = disposed
    }

    func dispose() {
        log.record(key)
        disposed.countDown()
    }
}

private final class SignallingAsyncDisposable: AsyncDisposable, Sendable {
    let key: String
    let log: DisposalLog
    let disposed: ConcurrencyLatch
    init(_ key: String, log: DisposalLog, disposed: ConcurrencyLatch) {
        self.key = key
        self.log = log
        self.disposed = disposed
    }

    func dispose() async throws {
        await Task.yield()
        log.record(key)
        disposed.countDown()
    }
}

/// An async start: async eager singletons (made concurrently), then synchronous ones; "broken"
/// fails in the synchronous phase, after everything else was made.
private struct FailingAsyncStartFactory: ObjectFactory {
    let log: DisposalLog
    let made = MadeObjects()
    var contextName: String { "FailingAsyncStart" }

    var definitions: Definitions {
        createEagerSingleton("pool") { [log, made] () async -> AsyncDisposableProbe in
            await Task.yield()
            let pool = AsyncDisposableProbe("pool", log: log)
            made.note(pool, "pool")
            return pool
        }
        createEagerSingleton("repository") { [log, made] (r: Resolver) async throws -> AsyncDisposableProbe in
            let repository = AsyncDisposableProbe("repository", log: log, dependencies: [try await r.object("pool", as: AsyncDisposableProbe.self)])
            made.note(repository, "repository")
            return repository
        }
        createEagerSingleton("cache") { [log, made] () -> DisposableProbe in
            let cache = DisposableProbe("cache", log: log)
            made.note(cache, "cache")
            return cache
        }
        createEagerSingleton("broken") { () throws -> DisposableProbe in throw StartFailure() }
    }
}

/// An async start whose async eager singleton fails in the concurrent phase, once another one
/// it waits for is made.
private struct FailingConcurrentPhaseFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "FailingConcurrentPhase" }

    var definitions: Definitions {
        createEagerSingleton("pool") { [log] () async -> AsyncDisposableProbe in AsyncDisposableProbe("pool", log: log) }
        createEagerSingleton("broken") { (r: Resolver) async throws -> AsyncDisposableProbe in
            _ = try await r.object("pool", as: AsyncDisposableProbe.self)
            throw StartFailure()
        }
    }
}

private func startSynchronously(_ factory: some ObjectFactory) throws(ContextError) -> ApplicationContext {
    try ApplicationContext(factory)
}

// MARK: - Tests

@Suite("Close: a failed start disposes what it made")
struct FailedStartDisposalTests {
    @Test func failingEagerSingletonAtSynchronousStartDisposesTheOnesMadeBeforeIt() throws {
        let log = DisposalLog()
        let factory = FailingSyncStartFactory(log: log)
        let error = thrownContextError { () throws(ContextError) in _ = try ApplicationContext(factory) }
        guard case let .creationFailed(key, _, underlying)? = error else {
            Issue.record("expected creationFailed, got \(String(describing: error))")
            return
        }
        #expect(key == "broken")
        #expect(underlying is StartFailure, "the start's own failure, not the failing dispose()")
        // In dependency order, before the init threw; the lazy one it pulled in too.
        let order = log.keys
        #expect(order.sorted() == ["cache", "pool", "repository"], "\(order)")
        let repository = try #require(order.firstIndex(of: "repository"))
        #expect(repository < (try #require(order.firstIndex(of: "pool"))))
        #expect(repository < (try #require(order.firstIndex(of: "cache"))))
        for weak in factory.made.all {
            #expect(weak.object == nil, "\(weak.label) outlived the failed start")
        }
    }

    @Test func failedSynchronousStartHandsAsyncDisposableObjectsToATask() async throws {
        let log = DisposalLog()
        let disposed = ConcurrencyLatch(count: 1)
        let error = thrownContextError { () throws(ContextError) in
            _ = try startSynchronously(FailingSyncStartWithAsyncDisposableFactory(log: log, disposed: disposed))
        }
        #expect(error?.isCreationFailure(of: "broken") == true, "\(String(describing: error))")
        #expect(log.keys.first == "cache", "the Disposable one is disposed before the init throws")
        #expect(await opensInTime(disposed), "the AsyncDisposable made by the failed start was never disposed")
        #expect(log.keys.sorted() == ["cache", "pool"])
    }

    @Test func failedSynchronousStartKeepsTheOrderWhenADisposableDependsOnAnAsyncDisposable() async throws {
        // Docs/Lifecycle.md: in the same order as close(): `pool` waits for `cache`, which
        // depends on it, although only `cache` needs the task.
        let log = DisposalLog()
        let disposed = ConcurrencyLatch(count: 1)
        let error = thrownContextError { () throws(ContextError) in
            _ = try startSynchronously(FailingSyncStartWithAsyncDependentFactory(log: log, disposed: disposed))
        }
        #expect(error?.isCreationFailure(of: "broken") == true, "\(String(describing: error))")
        #expect(await opensInTime(disposed), "the Disposable made by the failed start was never disposed")
        #expect(log.keys == ["cache", "pool"])
    }

    @Test func failingEagerSingletonAtAsyncStartDisposesEverythingItMadeBeforeThrowing() async throws {
        let log = DisposalLog()
        let factory = FailingAsyncStartFactory(log: log)
        let error = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await ApplicationContext(factory) }
        #expect(error?.isCreationFailure(of: "broken") == true, "\(String(describing: error))")
        // Awaited before the init threw: nothing to wait for.
        let order = log.keys
        #expect(order.sorted() == ["cache", "pool", "repository"], "\(order)")
        #expect(try #require(order.firstIndex(of: "repository")) < (try #require(order.firstIndex(of: "pool"))))
        for weak in factory.made.all {
            #expect(weak.object == nil, "\(weak.label) outlived the failed start")
        }
    }

    @Test func failureInTheConcurrentPhaseOfAnAsyncStartDisposesWhatWasMade() async throws {
        let log = DisposalLog()
        let error = await thrownContextErrorAsync { () async throws(ContextError) in _ = try await ApplicationContext(FailingConcurrentPhaseFactory(log: log)) }
        #expect(error?.isCreationFailure(of: "broken") == true, "\(String(describing: error))")
        #expect(log.keys == ["pool"])
    }

    @Test func successfulStartDisposesNothing() async throws {
        let log = DisposalLog()
        let context = try await ApplicationContext(FailingConcurrentPhaseFactory(log: log), overriding: HealthyOverride(log: log))
        #expect(log.keys.isEmpty)
        try await context.close()
        #expect(log.keys.sorted() == ["broken", "pool"])
    }
}

private struct HealthyOverride: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("broken") { [log] in DisposableProbe("broken", log: log) }
    }
}

extension ContextError {
    /// Whether this is `creationFailed` of `key` (the start's own failure).
    fileprivate func isCreationFailure(of key: String) -> Bool {
        if case let .creationFailed(failed, _, _) = self { return failed == key }
        return false
    }
}
