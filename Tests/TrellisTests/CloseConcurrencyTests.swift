#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

/// A disposable whose `dispose()` is slow (a sleep inside it, only to widen the window in which
/// other closers arrive), and which records how many disposals were done when it finished.
private final class SlowDisposable: Disposable, Sendable {
    let key: String
    let log: DisposalLog
    init(_ key: String, log: DisposalLog) {
        self.key = key
        self.log = log
    }

    func dispose() {
        usleep(20_000)
        log.record(key)
    }
}

private final class SlowAsyncDisposable: AsyncDisposable, Sendable {
    let key: String
    let log: DisposalLog
    init(_ key: String, log: DisposalLog) {
        self.key = key
        self.log = log
    }

    func dispose() async throws {
        try await Task.sleep(for: .milliseconds(20))
        log.record(key)
    }
}

private struct SlowFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Slow" }

    var definitions: Definitions {
        createEagerSingleton("one") { [log] in SlowDisposable("one", log: log) }
        createEagerSingleton("two") { [log] r in
            _ = try r.object("one", as: SlowDisposable.self)
            return SlowDisposable("two", log: log)
        }
        createEagerSingleton("three") { [log] in DisposableProbe("three", log: log, failing: "three broke") }
    }
}

/// A disposable whose `dispose()` says it began, then suspends until the test lets it finish.
private final class GatedAsyncDisposable: AsyncDisposable, Sendable {
    let entered: ConcurrencyLatch
    let release: ConcurrencyLatch
    init(entered: ConcurrencyLatch, release: ConcurrencyLatch) {
        self.entered = entered
        self.release = release
    }

    func dispose() async {
        entered.countDown()
        _ = await opensInTime(release)
    }
}

private struct AsyncDisposalGateFactory: ObjectFactory {
    let entered: ConcurrencyLatch
    let release: ConcurrencyLatch
    var contextName: String { "AsyncGated" }

    var definitions: Definitions {
        createEagerSingleton("gate") { [entered, release] in GatedAsyncDisposable(entered: entered, release: release) }
    }
}

private struct SlowAsyncFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "SlowAsync" }

    var definitions: Definitions {
        createEagerSingleton("one") { [log] in SlowAsyncDisposable("one", log: log) }
        createEagerSingleton("two") { [log] in SlowDisposable("two", log: log) }
        createEagerSingleton("three") { [log] in SlowAsyncDisposable("three", log: log) }
    }
}

/// Whether the current thread is the one running the test's `close()`.
private enum Closer {
    @TaskLocal static var isClosing = false
}

/// A singleton made on demand; its `dispose()` notes whether the test's closer disposed it.
private final class Raced: Disposable, Sendable {
    private let disposals = Guarded<[Bool]>([])
    func dispose() { disposals.withLock { $0.append(Closer.isClosing) } }
    /// One entry per disposal: `true` when the test's `close()` did it.
    var disposedBy: [Bool] { disposals.value }
}

private struct RacedFactory: ObjectFactory {
    let made = Guarded<[Raced]>([])
    var contextName: String { "Raced" }

    var definitions: Definitions {
        createSingleton("raced") { [made] () -> Raced in
            let object = Raced()
            made.withLock { $0.append(object) }
            return object
        }
        createPrototype("prototype") { r in try r.object("raced", as: Raced.self) }
    }
}

/// A singleton whose making waits at a gate, so that the test can close the context meanwhile.
private struct GatedFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let gate = ConcurrencyLatch(count: 1)
    let made = Guarded<[Raced]>([])
    var contextName: String { "Gated" }

    var definitions: Definitions {
        createSingleton("slow") { [entered, gate, made] () -> Raced in
            entered.countDown()
            gate.wait()
            let object = Raced()
            made.withLock { $0.append(object) }
            return object
        }.aliases("slowAlias")
    }
}

/// A singleton made at once whose `@Inject` property names a singleton made behind a gate: a
/// close that begins meanwhile cuts the injection off.
private final class InjectsGated: Disposable, @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var slow: Raced
    let disposals = Guarded<Int>(0)
    func dispose() { disposals.withLock { $0 += 1 } }
}

private struct InjectionGatedFactory: ObjectFactory {
    let gated = GatedFactory()
    let made = Guarded<[InjectsGated]>([])
    var contextName: String { "Gated" }

    var definitions: Definitions {
        gated.definitions
        createSingleton("service") { [made] () -> InjectsGated in
            let object = InjectsGated()
            made.withLock { $0.append(object) }
            return object
        }
    }
}

/// `GatedFactory` with an async closure: its making suspends at the gate.
private struct AsyncGatedFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let gate = ConcurrencyLatch(count: 1)
    let made = Guarded<[Raced]>([])
    var contextName: String { "AsyncGated" }

    var definitions: Definitions {
        createSingleton("slow") { [entered, gate, made] () async -> Raced in
            entered.countDown()
            _ = await opensInTime(gate)
            let object = Raced()
            made.withLock { $0.append(object) }
            return object
        }.aliases("slowAlias")
    }
}

/// What one lookup of a racing thread got.
private enum RaceOutcome: Sendable {
    case object(ObjectIdentifier)
    case closed(ContextError)
    case other(ContextError)
}

/// Checks that the one object in `objects` was disposed once, and hands it over as a weak
/// reference (the factory lets go of it).
private func lateObject(_ objects: Guarded<[Raced]>) throws -> ConcurrencyWeak {
    let made = objects.value
    try #require(made.count == 1)
    #expect(made[0].disposedBy.count == 1, "the late object is disposed once")
    objects.withLock { $0 = [] }
    return ConcurrencyWeak(made[0], "slow")
}

/// An `AsyncDisposable` whose disposal suspends for a while (a sleep, only to make it slow).
private final class AwaitedDisposal: AsyncDisposable, Sendable {
    let started: ConcurrencyLatch
    let log: DisposalLog
    init(started: ConcurrencyLatch, log: DisposalLog) {
        self.started = started
        self.log = log
    }

    func dispose() async throws {
        started.countDown()
        try await Task.sleep(for: .milliseconds(200))
        log.record("pool")
    }
}

private struct AwaitedDisposalFactory: ObjectFactory {
    let started: ConcurrencyLatch
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("pool") { [started, log] in AwaitedDisposal(started: started, log: log) }
    }
}

/// The body of the exit test below: an async `close()` awaits an `AsyncDisposable` while eight
/// tasks (more than the cooperative pool has threads) call the synchronous `close()`. Exits with
/// 0 when every closer returned (a synchronous one either after the disposal or with
/// `requiresAwait`), 1 on a hang.
private func synchronousClosersDuringAnAsyncClose() async {
    let finished = ConcurrencyLatch(count: 1)
    _ = ConcurrencyThreads.start(1) { _ in
        if !finished.wait() {
            print("hang: the synchronous close() calls blocked the pool the async close() needs")
            exit(1)
        }
    }
    let started = ConcurrencyLatch(count: 1)
    let log = DisposalLog()
    guard let context = try? await ApplicationContext(AwaitedDisposalFactory(started: started, log: log)) else { exit(2) }
    let closer = Task { try await context.close() }
    guard await opensInTime(started) else { exit(3) }
    let outcomes = Guarded<[String]>([])
    let closers = (0..<8).map { _ in
        Task {
            let error = thrownContextError { () throws(ContextError) in try closeSynchronously(context) }
            let outcome: String
            switch error {
            case nil: outcome = log.keys == ["pool"] ? "ok" : "returned before the disposal was done"
            case .requiresAwait?: outcome = "ok"
            case let other?: outcome = "threw \(other)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
    }
    _ = try? await closer.value
    for closer in closers { await closer.value }
    finished.countDown()
    let wrong = outcomes.value.filter { $0 != "ok" }
    if !wrong.isEmpty {
        print(wrong)
        exit(4)
    }
}

/// The body of the exit test below: an awaited `close()` disposes a plain `Disposable` (on a
/// thread of the pool, held until the test lets it go) while a task calls the synchronous
/// `close()`. Exits with 0 when the refusal names the singleton and says a close is under way.
private func synchronousCloseInATaskDuringAnAwaitedCloseOfPlainDisposables() async {
    let finished = ConcurrencyLatch(count: 1)
    _ = ConcurrencyThreads.start(1) { _ in
        if !finished.wait() {
            print("hang")
            exit(1)
        }
    }
    let held = HeldDisposal()
    guard let context = try? await ApplicationContext(HeldFactory(held: held)) else { exit(2) }
    let closer = Task { try await context.close() }
    guard await opensInTime(held.entered) else { exit(3) }
    let error = await Task { thrownContextError { () throws(ContextError) in try closeSynchronously(context) } }.value
    held.release.countDown()
    _ = try? await closer.value
    finished.countDown()
    guard case let .requiresAwait(key, path)? = error, key == "held", path.last == "held",
          "\(error!)".contains("An awaited close() of this context is disposing") else {
        print("refused with \(String(describing: error))")
        exit(4)
    }
}

// MARK: - Tests

@Suite("Close: concurrent closers and lookups racing close")
struct CloseConcurrencyTests {
    /// Eight threads close at once: each object is disposed once, and every caller returns only
    /// after every disposal is done.
    @Test func closeFromEightThreadsDisposesEachObjectOnceAndEveryCallerWaits() throws {
        for _ in 0..<5 {
            let log = DisposalLog()
            let context = try ApplicationContext(SlowFactory(log: log))
            let start = ConcurrencyBarrier(parties: 8)
            let seen = Guarded<[(disposed: Int, error: ContextError?)]>([])
            let finished = ConcurrencyThreads.run(8) { _ in
                start.arriveAndWait()
                let error = thrownContextError { () throws(ContextError) in try context.close() }
                let disposed = log.keys.count
                seen.withLock { $0.append((disposed, error)) }
            }
            try #require(finished, "concurrent close() calls did not all return")
            #expect(log.keys == ["three", "two", "one"], "each once, in order")
            let results = seen.value
            #expect(results.count == 8)
            #expect(results.allSatisfy { $0.disposed == 3 }, "a caller returned before the disposals were done: \(results.map(\.disposed))")
            let errors = results.compactMap(\.error)
            #expect(errors.count == 1, "the failure of 'three' is reported once, by the caller that disposed: \(errors)")
            #expect(errors.allSatisfy { $0 == .disposalFailed(context: "Slow", failures: [.init(key: "three", error: "three broke")]) }, "\(errors)")
        }
    }

    @Test func asyncCloseFromManyTasksDisposesEachObjectOnceAndEveryCallerWaits() async throws {
        for _ in 0..<3 {
            let log = DisposalLog()
            let context = try await ApplicationContext(SlowAsyncFactory(log: log))
            let outcome = await finishesInTime { () -> [Int?] in
                await withTaskGroup(of: Int?.self) { group in
                    for _ in 0..<32 {
                        group.addTask {
                            do throws(ContextError) {
                                try await context.close()
                                return log.keys.count
                            } catch {
                                return nil
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            let counts = try #require(outcome, "concurrent async close() calls did not all return")
            #expect(counts.count == 32)
            #expect(counts.allSatisfy { $0 == 3 }, "a caller threw or returned before the disposals were done: \(counts)")
            #expect(log.keys == ["three", "two", "one"], "each once, in order")
        }
    }

    @Test func synchronousAndAsyncClosersTogetherDisposeEachObjectOnce() async throws {
        for _ in 0..<3 {
            let log = DisposalLog()
            let context = try await ApplicationContext(SlowFactory(log: log))
            let synchronousCounts = Guarded<[Int]>([])
            let threadsDone = ConcurrencyThreads.start(4) { _ in
                _ = thrownContextError { () throws(ContextError) in try context.close() }
                let disposed = log.keys.count
                synchronousCounts.withLock { $0.append(disposed) }
            }
            let outcome = await finishesInTime { () -> [Int] in
                await withTaskGroup(of: Int.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            _ = await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() }
                            return log.keys.count
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            let counts = try #require(outcome, "async close() calls did not all return")
            #expect(await opensInTime(threadsDone), "synchronous close() calls did not all return")
            #expect(counts.allSatisfy { $0 == 3 }, "an async caller returned before the disposals were done: \(counts)")
            #expect(synchronousCounts.value == [3, 3, 3, 3], "a synchronous caller returned before the disposals were done")
            #expect(log.keys == ["three", "two", "one"])
        }
    }

    /// While an awaited `close()` disposes an `AsyncDisposable`, a synchronous `close()` from a
    /// plain thread is refused instead of waiting, naming that key, as a close under way
    /// (Docs/Lifecycle.md: it "says a close is under way"; not that nothing was disposed).
    @Test func synchronousCloseOnAThreadWhileAnAwaitedCloseDisposesAnAsyncDisposableThrowsRequiresAwait() async throws {
        let entered = ConcurrencyLatch(count: 1)
        let release = ConcurrencyLatch(count: 1)
        let context = try await ApplicationContext(AsyncDisposalGateFactory(entered: entered, release: release))
        let closing = Task { await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() } }
        #expect(await opensInTime(entered), "the awaited close() never began disposing")
        let refused = Guarded<ContextError?>(nil)
        let threadDone = ConcurrencyThreads.start(1) { _ in
            let error = thrownContextError { () throws(ContextError) in try closeSynchronously(context) }
            refused.withLock { $0 = error }
        }
        #expect(await opensInTime(threadDone), "the synchronous close() did not return")
        release.countDown()
        #expect(refused.value?.requiresAwaitKeyAndPath?.key == "gate")
        #expect(refused.value?.description.hasPrefix("An awaited close() of this context is disposing its singletons ('gate' among them)") == true)
        let closed = await finishesInTime { await closing.value }
        #expect(closed == .some(nil), "the awaited close() did not finish cleanly")
    }

    /// Lookups race `close()` on purpose, for many rounds: each gets the singleton or
    /// `contextClosed`, never an object made after close began; a lookup that starts after
    /// `close()` returned always gets `contextClosed`; whatever was made is disposed once.
    @Test func lookupRacingCloseGetsTheObjectOrContextClosedNeverAFreshObject() throws {
        let rounds = 150
        var handedOut = 0, refused = 0
        for round in 0..<rounds {
            let factory = RacedFactory()
            let context = try ApplicationContext(factory)
            // Some rounds start with the singleton made, most race its making too.
            if round % 5 == 0 { _ = try context.object("raced", as: Raced.self) }
            let start = ConcurrencyBarrier(parties: 4)
            let closeReturned = ConcurrencyFlag()
            let outcomes = Guarded<[RaceOutcome]>([])
            let lateLookups = Guarded<[RaceOutcome]>([])
            let finished = ConcurrencyThreads.run(4) { thread in
                start.arriveAndWait()
                if thread == 0 {
                    Closer.$isClosing.withValue(true) { try? context.close() }
                    closeReturned.set()
                    return
                }
                for attempt in 0..<40 {
                    let wasClosed = closeReturned.isSet
                    let outcome: RaceOutcome
                    do throws(ContextError) {
                        let key = (attempt + thread) % 3 == 0 ? "prototype" : "raced"
                        outcome = .object(ObjectIdentifier(try context.object(key, as: Raced.self)))
                    } catch {
                        if case .contextClosed = error { outcome = .closed(error) } else { outcome = .other(error) }
                    }
                    outcomes.withLock { $0.append(outcome) }
                    if wasClosed { lateLookups.withLock { $0.append(outcome) } }
                }
            }
            try #require(finished, "round \(round): threads did not finish")
            let made = factory.made.value
            #expect(made.count <= 1, "round \(round): the singleton was made \(made.count) times")
            var identities = Set<ObjectIdentifier>()
            for outcome in outcomes.value {
                switch outcome {
                case let .object(identity):
                    identities.insert(identity)
                    handedOut += 1
                case let .closed(error):
                    refused += 1
                    #expect(error == .contextClosed(context: "Raced", key: "raced") || error == .contextClosed(context: "Raced", key: "prototype"), "round \(round): \(error)")
                case let .other(error):
                    Issue.record("round \(round): a racing lookup threw \(error)")
                }
            }
            for outcome in lateLookups.value {
                guard case .closed = outcome else {
                    Issue.record("round \(round): a lookup that began after close() returned got \(outcome)")
                    continue
                }
            }
            #expect(identities.count <= 1, "round \(round): several objects handed out")
            if let object = made.first {
                // Made once, disposed once: by close() if it was published before close began
                // (then it may have been handed out), else by the lookup that made it.
                #expect(object.disposedBy.count == 1, "round \(round): disposed \(object.disposedBy.count) times")
                if identities.contains(ObjectIdentifier(object)) {
                    #expect(object.disposedBy == [true], "round \(round): an object made after close began was handed out")
                }
            } else {
                #expect(identities.isEmpty)
            }
        }
        // Not an assertion on timing: only that the test exercised both outcomes at all.
        #expect(handedOut + refused == rounds * 3 * 40)
    }

    /// Docs/Lifecycle.md: `contextClosed` names the key looked up; for a lookup by type cut off
    /// by a close while it made a definition, that is the type, not the definition's key.
    @Test(arguments: [false, true])
    func aLookupByTypeCutOffByACloseNamesTheTypeItAskedFor(all: Bool) throws {
        let factory = GatedFactory()
        let context = try ApplicationContext(factory)
        let result = Guarded<ContextError?>(nil)
        let lookupDone = ConcurrencyThreads.start(1) { _ in
            do throws(ContextError) {
                if all { _ = try context.objects(of: Raced.self) } else { _ = try context.object(of: Raced.self) }
            } catch {
                result.withLock { $0 = error }
            }
        }
        try #require(factory.entered.wait(), "the lookup never started making the singleton")
        try context.close()
        factory.gate.countDown()
        try #require(lookupDone.wait(), "the lookup did not return")
        #expect(result.value == .contextClosed(context: "Gated", key: String(reflecting: Raced.self)))
    }

    /// Deterministic: a singleton whose making ends after close began is not handed out, nor
    /// cached; it is disposed and released.
    @Test(arguments: ["slow", "slowAlias"])
    func singletonFinishedAfterCloseBeganIsNotHandedOutAndIsDisposed(asked: String) throws {
        let factory = GatedFactory()
        let context = try ApplicationContext(factory)
        let result = Guarded<RaceOutcome?>(nil)
        let lookupDone = ConcurrencyThreads.start(1) { _ in
            do throws(ContextError) {
                let object = try context.object(asked, as: Raced.self)
                result.withLock { $0 = .object(ObjectIdentifier(object)) }
            } catch {
                result.withLock { $0 = .closed(error) }
            }
        }
        try #require(factory.entered.wait(), "the lookup never started making the singleton")
        try context.close()
        factory.gate.countDown()
        try #require(lookupDone.wait(), "the lookup did not return")
        guard case let .closed(error)? = result.value else {
            Issue.record("the lookup got \(String(describing: result.value)) instead of contextClosed")
            return
        }
        // Docs/Lifecycle.md: the error names the key looked up (an alias too).
        #expect(error == .contextClosed(context: "Gated", key: asked))
        let weak = try lateObject(factory.made)
        #expect(weak.object == nil, "the late object is not kept by the closed context")
        #expect(throws: ContextError.contextClosed(context: "Gated", key: "slow")) {
            _ = try context.object("slow", as: Raced.self)
        }
    }

    /// Docs/Lifecycle.md, "A lookup racing close()": a singleton made while its injection was
    /// under way when `close()` began is never kept, and the lookup that made it disposes it,
    /// also when what cut the injection off was the close (its property's lookup throws
    /// `contextClosed`).
    @Test func aSingletonWhoseInjectionACloseCutsOffIsDisposedByTheLookupThatMadeIt() throws {
        let factory = InjectionGatedFactory()
        let context = try ApplicationContext(factory)
        let result = Guarded<ContextError?>(nil)
        let lookupDone = ConcurrencyThreads.start(1) { _ in
            do throws(ContextError) {
                _ = try context.object("service", as: InjectsGated.self)
            } catch {
                result.withLock { $0 = error }
            }
        }
        try #require(factory.gated.entered.wait(), "the injection never started making its property's singleton")
        try context.close()
        factory.gated.gate.countDown()
        try #require(lookupDone.wait(), "the lookup did not return")
        guard case .contextClosed? = result.value else {
            Issue.record("the lookup got \(String(describing: result.value)) instead of contextClosed")
            return
        }
        let service = try #require(factory.made.value.first)
        #expect(service.disposals.value == 1, "the service whose injection close cut off was disposed \(service.disposals.value) times")
        _ = try lateObject(factory.gated.made)
    }

    /// A synchronous `close()` called from tasks while an async `close()` awaits an
    /// `AsyncDisposable` must not wait for that async work on a thread of the cooperative pool
    /// (Docs/Async.md: a synchronous caller never does): the awaited disposal needs a pool thread to resume.
    /// It throws `requiresAwait` (Docs/Lifecycle.md: a made singleton is `AsyncDisposable`) or returns once the
    /// context is closed. In a child process, because a deadlock there stalls the whole pool.
    @Test func synchronousCloseFromTasksDuringAnAsyncCloseDoesNotStarveThePool() async {
        await #expect(processExitsWith: .success) {
            await synchronousClosersDuringAnAsyncClose()
        }
    }

    /// Docs/Lifecycle.md: while an awaited `close()` disposes, a synchronous one in a task throws
    /// `requiresAwait`, naming a singleton being disposed (not the context) and why. In a child
    /// process: the awaited close holds a thread of the pool meanwhile.
    @Test func synchronousCloseInATaskDuringAnAwaitedCloseNamesASingletonBeingDisposed() async {
        await #expect(processExitsWith: .success) {
            await synchronousCloseInATaskDuringAnAwaitedCloseOfPlainDisposables()
        }
    }

    /// The same with an async lookup and an async close: the lookup suspended in the making gets
    /// `contextClosed`, and the object is disposed and not kept.
    @Test(arguments: ["slow", "slowAlias"])
    func asyncSingletonFinishedAfterAsyncCloseBeganIsNotHandedOutAndIsDisposed(asked: String) async throws {
        let factory = AsyncGatedFactory()
        let context = try await ApplicationContext(factory)
        let lookup = Task { () -> ContextError? in
            await thrownContextErrorAsync { () async throws(ContextError) in _ = try await context.object(asked, as: Raced.self) }
        }
        try #require(await opensInTime(factory.entered), "the lookup never started making the singleton")
        let closed = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await context.close() } }
        try #require(closed != nil, "close() waited for the singleton being made")
        factory.gate.countDown()
        let error = await lookup.value
        #expect(error == .contextClosed(context: "AsyncGated", key: asked))
        let weak = try lateObject(factory.made)
        #expect(weak.object == nil, "the late object is not kept by the closed context")
    }
}
