import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class StartNode: Sendable {
    let key: String
    let next: StartNode?
    init(_ key: String, next: StartNode? = nil) {
        self.key = key
        self.next = next
    }
}

private struct StartFailure: Error, Equatable {
    let key: String
}

/// Ten independent async eager singletons, each sleeping 20 ms.
private struct SleepersFactory: ObjectFactory {
    var definitions: Definitions {
        for index in 0..<10 {
            createEagerSingleton("sleeper\(index)") { () async throws -> StartNode in
                try await Task.sleep(for: .milliseconds(20))
                return StartNode("sleeper\(index)")
            }
        }
    }
}

/// Ten async eager singletons that each wait until all ten are running: the start can only
/// finish if they are made concurrently.
private struct MeetingFactory: ObjectFactory {
    let meeting = AsyncBarrier(parties: 10)

    var definitions: Definitions {
        for index in 0..<10 {
            createEagerSingleton("member\(index)") { [meeting] () async -> StartNode in
                await meeting.arrive()
                return StartNode("member\(index)")
            }
        }
    }
}

/// A synchronous eager singleton declared before an async one it depends on.
private struct MixedEagerFactory: ObjectFactory {
    var contextName: String { "Mixed" }

    var definitions: Definitions {
        createEagerSingleton("repository") { r in StartNode("repository", next: try r.object("pool")) }
        createEagerSingleton("pool") { r async throws -> StartNode in StartNode("pool", next: try await r.object("config")) }
        createSingleton("config") { () async -> StartNode in
            await Task.yield()
            return StartNode("config")
        }
        createEagerSingleton("clock") { StartNode("clock") }
    }
}

/// An async eager singleton pulling in a lazy async singleton, a lazy synchronous one and an
/// async prototype, in that order.
private struct PullingFactory: ObjectFactory {
    var contextName: String { "Pulling" }

    var definitions: Definitions {
        createEagerSingleton("pool") { r async throws -> StartNode in
            let config: StartNode = try await r.object("config")
            let tables: StartNode = try await r.object("tables")
            let connection: StartNode = try await r.object("connection")
            return StartNode("pool", next: StartNode(config.key, next: StartNode(tables.key, next: connection)))
        }
        createSingleton("config") { () async -> StartNode in StartNode("config") }
        createSingleton("tables") { StartNode("tables") }
        createPrototype("connection") { () async -> StartNode in StartNode("connection") }
        createEagerSingleton("independent") { () async -> StartNode in StartNode("independent") }
    }
}

/// Eager async `a` depends on eager async `b`: whoever makes `b`, it is made once and listed
/// once.
private struct EagerPullsEagerFactory: ObjectFactory {
    let runs = Guarded<[String: Int]>([:])

    var definitions: Definitions {
        createEagerSingleton("a") { [runs] r async throws -> StartNode in
            runs.withLock { $0["a", default: 0] += 1 }
            return StartNode("a", next: try await r.object("b"))
        }
        createEagerSingleton("b") { [runs] () async -> StartNode in
            runs.withLock { $0["b", default: 0] += 1 }
            await Task.yield()
            return StartNode("b")
        }
        createEagerSingleton("c") { [runs] r async throws -> StartNode in
            runs.withLock { $0["c", default: 0] += 1 }
            return StartNode("c", next: try await r.object("b"))
        }
    }
}

/// Eager singletons `s` (sync) → `a1` → `a2` → `a3` (async).
private struct AsyncChainFactory: ObjectFactory {
    let runs = Guarded<[String: Int]>([:])

    var contextName: String { "Chain" }

    var definitions: Definitions {
        createEagerSingleton("s") { [runs] r in
            runs.withLock { $0["s", default: 0] += 1 }
            return StartNode("s", next: try r.object("a1"))
        }
        createEagerSingleton("a1") { [runs] r async throws -> StartNode in
            runs.withLock { $0["a1", default: 0] += 1 }
            return StartNode("a1", next: try await r.object("a2"))
        }
        createEagerSingleton("a2") { [runs] r async throws -> StartNode in
            runs.withLock { $0["a2", default: 0] += 1 }
            await Task.yield()
            return StartNode("a2", next: try await r.object("a3"))
        }
        createEagerSingleton("a3") { [runs] () async -> StartNode in
            runs.withLock { $0["a3", default: 0] += 1 }
            await Task.yield()
            return StartNode("a3")
        }
    }
}

/// The same chain with a synchronous link in the middle: `s` → `a1` → `m` (sync) → `a3`.
/// `a1` pulls `m` in during the concurrent phase, where a synchronous closure never gets an
/// async definition: the start fails, whatever the timing.
private struct BrokenChainFactory: ObjectFactory {
    var contextName: String { "BrokenChain" }

    var definitions: Definitions {
        createEagerSingleton("s") { r in StartNode("s", next: try r.object("a1")) }
        createEagerSingleton("a1") { r async throws -> StartNode in StartNode("a1", next: try await r.object("m")) }
        createEagerSingleton("m") { r in StartNode("m", next: try r.object("a3")) }
        createEagerSingleton("a3") { () async -> StartNode in StartNode("a3") }
    }
}

/// `a1` makes sure `a3` is made before it pulls in the synchronous `m`, which asks for `a3`:
/// during the concurrent phase `m` still gets `requiresAwait`, made or not.
private struct MadeButRestrictedFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("a1") { r async throws -> StartNode in
            let a3: StartNode = try await r.object("a3")
            return StartNode("a1", next: StartNode(a3.key, next: try await r.object("m")))
        }
        createSingleton("m") { r in StartNode("m", next: try r.object("a3")) }
        createEagerSingleton("a3") { () async -> StartNode in StartNode("a3") }
    }
}

/// `a1` makes the main-actor singleton `screen` (its lookup hops to the main actor), then pulls in
/// the synchronous `holder`, which asks for `screen` off the main actor: during the concurrent
/// phase it gets `MainActorRequired`, made or not, as it would if `screen` were not made yet.
/// Or `holder` asks for `injected`, which has it as an `@Inject` property.
private struct MainActorMadeButRestrictedFactory: ObjectFactory {
    let throughProperty: Bool

    var definitions: Definitions {
        createMainActorSingleton("screen") { StartNode("screen") }
        createEagerSingleton("a1") { r async throws -> StartNode in
            let screen: StartNode = try await r.object("screen")
            return StartNode("a1", next: StartNode(screen.key, next: try await r.object("holder")))
        }
        createSingleton("holder") { [throughProperty] r in
            StartNode("holder", next: throughProperty ? try r.object("injected", as: ScreenHolder.self).screen : try r.object("screen", as: StartNode.self))
        }
        createSingleton("injected") { ScreenHolder() }
    }
}

/// A parent whose main-actor singleton is lazy.
private struct LazyScreenFactory: ObjectFactory {
    var definitions: Definitions { createMainActorSingleton("screen") { StartNode("screen") } }
}

/// `shared`, a synchronous closure that may run anywhere, asks for the main-actor `screen`;
/// `onMain` (an async main-actor eager singleton, whose lookups run on the main actor) and
/// `offMain` (a plain one) ask for `shared`, `firstAsker` first: whoever asks first, the start
/// fails the same way.
private struct MainActorAskedEitherWayFactory: ObjectFactory {
    let firstAsker: String
    let firstAsked = AsyncGate()

    var definitions: Definitions {
        createMainActorSingleton("screen") { StartNode("screen") }
        createSingleton("shared") { r in StartNode("shared", next: try r.object("screen", as: StartNode.self)) }
        createMainActorEagerSingleton("onMain") { [firstAsker, firstAsked] r async throws -> StartNode in
            if firstAsker != "onMain" { await firstAsked.wait() }
            defer { firstAsked.open() }
            // A synchronous lookup, on the main actor.
            let lookUp = { () throws -> StartNode in try r.object("shared", as: StartNode.self) }
            return StartNode("onMain", next: try lookUp())
        }
        createEagerSingleton("offMain") { [firstAsker, firstAsked] r async throws -> StartNode in
            if firstAsker != "offMain" { await firstAsked.wait() }
            defer { firstAsked.open() }
            return StartNode("offMain", next: try await r.object("shared", as: StartNode.self))
        }
    }
}

private final class ScreenHolder: @unchecked Sendable {
    // Safe: injected once, by the context that makes it, before anyone else sees it.
    @Inject var screen: StartNode
}

/// A started parent's main-actor eager singleton is made: a synchronous closure pulled in
/// during the child's concurrent phase gets it off the main actor.
private struct StartedMainActorParentFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorEagerSingleton("screen") { StartNode("screen") }
    }
}

private struct ChildOfStartedMainActorFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("pool") { r async throws -> StartNode in StartNode("pool", next: try await r.object("repository")) }
        createSingleton("repository") { r in StartNode("repository", next: try r.object("screen", as: StartNode.self)) }
    }
}

private struct StartedParentFactory: ObjectFactory {
    var contextName: String { "StartedParent" }

    var definitions: Definitions {
        createEagerSingleton("config") { () async -> StartNode in StartNode("config") }
    }
}

/// A synchronous closure pulled in during the concurrent phase may have an async eager
/// singleton of a parent that is already started.
private struct ChildOfStartedFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("pool") { r async throws -> StartNode in StartNode("pool", next: try await r.object("repository")) }
        createSingleton("repository") { r in StartNode("repository", next: try r.object("config")) }
    }
}

/// A weak reference to an object made during a start, checked after the start failed.
private final class WeakBox: @unchecked Sendable {
    // Safe: written by the closure that made the object, before its task ends; read by the test
    // after the start (which awaited that task) returned.
    weak var object: StartDisposable?
    let key: String
    init(_ key: String) { self.key = key }
}

private final class StartDisposable: Disposable, @unchecked Sendable {
    // Safe: `disposals` is a thread-safe counter.
    let key: String
    let disposals: ConcurrencyCounter
    init(_ key: String, disposals: ConcurrencyCounter) {
        self.key = key
        self.disposals = disposals
    }

    func dispose() throws { disposals.increment() }
}

/// `waits` (declared first) waits until it is cancelled; `fails` throws at once; `succeeds` and
/// what it pulls in are made; `ignoresCancellation` is made although it is cancelled; `late` is
/// a synchronous eager singleton, made after the concurrent phase (so never).
private struct FailingStartFactory: ObjectFactory {
    let disposals = ConcurrencyCounter()
    let weak = ["waits", "succeeds", "pulled", "ignoresCancellation", "late"].map(WeakBox.init)
    let lateRuns = ConcurrencyCounter()
    let sawCancellation = Guarded<[String]>([])

    func remember(_ object: StartDisposable) -> StartDisposable {
        weak.first { $0.key == object.key }?.object = object
        return object
    }

    var definitions: Definitions {
        createEagerSingleton("waits") { [self] () async throws -> StartDisposable in
            let gate = AsyncGate()
            _ = await gate.waitUnlessCancelled()
            if Task.isCancelled { sawCancellation.withLock { $0.append("waits") } }
            try Task.checkCancellation()
            return remember(StartDisposable("waits", disposals: disposals))
        }
        createEagerSingleton("fails") { () async throws -> StartDisposable in
            await Task.yield()
            throw StartFailure(key: "fails")
        }
        createEagerSingleton("succeeds") { [self] r async throws -> StartDisposable in
            _ = try await r.object("pulled", as: StartDisposable.self)
            return remember(StartDisposable("succeeds", disposals: disposals))
        }
        createSingleton("pulled") { [self] () async -> StartDisposable in remember(StartDisposable("pulled", disposals: disposals)) }
        createEagerSingleton("ignoresCancellation") { [self] () async -> StartDisposable in
            _ = await AsyncGate().waitUnlessCancelled()
            if Task.isCancelled { sawCancellation.withLock { $0.append("ignoresCancellation") } }
            return remember(StartDisposable("ignoresCancellation", disposals: disposals))
        }
        createEagerSingleton("late") { [self] in
            lateRuns.increment()
            return remember(StartDisposable("late", disposals: disposals))
        }
    }
}

/// `cache` (declared first) fails only once the start is cancelled, with an error of its own
/// for it (as `URLSession` throws `URLError(.cancelled)`); `database` fails on its own.
private struct CancellationMappedFactory: ObjectFactory {
    let cacheEntered = AsyncGate()

    var definitions: Definitions {
        createEagerSingleton("cache") { [cacheEntered] () async throws -> StartNode in
            cacheEntered.open()
            _ = await AsyncGate().waitUnlessCancelled()
            throw StartFailure(key: "cache cancelled")
        }
        createEagerSingleton("database") { [cacheEntered] () async throws -> StartNode in
            await cacheEntered.wait()
            throw StartFailure(key: "database")
        }
    }
}

/// Checks the invariants every async start's report keeps: listed in the order finished, each
/// key at most once across entries and what they pulled in, ranges well formed.
private func expectWellFormed(_ report: StartupReport, sourceLocation: SourceLocation = #_sourceLocation) {
    let entries = report.entries
    #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.end <= $1.end }, "listed in the order finished: \(report)", sourceLocation: sourceLocation)
    #expect(entries.allSatisfy { $0.start >= .zero && $0.start <= $0.end }, sourceLocation: sourceLocation)
    #expect(report.total == (entries.map(\.end).max() ?? .zero), sourceLocation: sourceLocation)
    let keys = entries.map(\.key)
    #expect(Set(keys).count == keys.count, "an entry twice: \(report)", sourceLocation: sourceLocation)
    let pulled = entries.flatMap(\.pulledIn).map { $0.split(separator: ".").last.map(String.init) ?? $0 }
    #expect(Set(keys).isDisjoint(with: pulled), "an eager singleton both listed and pulled in: \(report)", sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite struct AsyncStartTests {
    @Test func tenIndependentSlowEagerSingletonsStartConcurrently() async throws {
        let context = try await ApplicationContext(SleepersFactory())
        let report = context.startupReport
        try #require(report.entries.count == 10)
        expectWellFormed(report)
        // Overlap, read from the offsets rather than the wall clock: a sequential start would
        // have every entry begin after the one before it ended.
        let sorted = report.entries.sorted { $0.start < $1.start }
        let overlapping = zip(sorted, sorted.dropFirst()).filter { $1.start < $0.end }.count
        #expect(overlapping > 0, "no two eager singletons overlapped:\n\(report)")
        // The span from the first start to the last end, not `total`: a task pool kept busy by
        // tests running in parallel may start the group late, which says nothing about overlap.
        let sum = report.entries.reduce(Duration.zero) { $0 + $1.duration }
        let span = (report.entries.map(\.end).max() ?? .zero) - (report.entries.map(\.start).min() ?? .zero)
        #expect(span < sum, "the start took the sum of its parts:\n\(report)")
        #expect(report.entries.allSatisfy { $0.duration >= .milliseconds(20) })
        for index in 0..<10 {
            #expect(try Sync.object(context, "sleeper\(index)", as: StartNode.self).key == "sleeper\(index)")
        }
    }

    @Test func asyncEagerSingletonsAreAllInFlightAtOnce() async throws {
        let factory = MeetingFactory()
        let started = await AsyncHangGuard.run("a start whose eager singletons must meet") { await startResult(factory) }
        let context = try #require(started).get()
        let report = context.startupReport
        try #require(report.entries.count == 10)
        expectWellFormed(report)
        // Every one started before any ended: they met while all were running.
        let lastStart = try #require(report.entries.map { $0.start }.max())
        let firstEnd = try #require(report.entries.map { $0.end }.min())
        #expect(lastStart <= firstEnd, "\(report)")
        #expect(report.description.contains("start ms"))
        #expect(report.description.contains("end ms"))
        #expect(report.entries.allSatisfy { report.description.contains($0.key) })
    }

    @Test func asyncEagerSingletonsFinishBeforeSynchronousOnesWhichFollowInDeclarationOrder() async throws {
        for _ in 0..<20 {
            let context = try await ApplicationContext(MixedEagerFactory())
            let report = context.startupReport
            expectWellFormed(report)
            // "pool" is the only async eager singleton: it is made first, though declared second;
            // then "repository" and "clock" in declaration order.
            #expect(report.entries.map(\.key) == ["pool", "repository", "clock"])
            #expect(report.entries.first?.pulledIn == ["Mixed.config"])
            let repository: StartNode = try await context.object("repository")
            #expect(repository.next === (try await context.object("pool", as: StartNode.self)))
        }
    }

    @Test func pulledInListsWhatAnAsyncEagerSingletonMadeInTheOrderFinished() async throws {
        let context = try await ApplicationContext(PullingFactory())
        let report = context.startupReport
        expectWellFormed(report)
        #expect(Set(report.entries.map(\.key)) == ["pool", "independent"])
        let pool = try #require(report.entries.first { $0.key == "pool" })
        #expect(pool.pulledIn == ["Pulling.config", "Pulling.tables", "Pulling.connection"])
        #expect(report.entries.first { $0.key == "independent" }?.pulledIn == [])
    }

    @Test func anEagerSingletonPulledInByAnotherIsMadeOnceAndListedOnce() async throws {
        for _ in 0..<50 {
            let factory = EagerPullsEagerFactory()
            let context = try await ApplicationContext(factory)
            #expect(factory.runs.value == ["a": 1, "b": 1, "c": 1])
            expectWellFormed(context.startupReport)
            let b: StartNode = try await context.object("b")
            #expect(try await context.object("a", as: StartNode.self).next === b)
            #expect(try await context.object("c", as: StartNode.self).next === b)
        }
    }

    @Test func chainOfEagerSingletonsSyncThenAsyncThenAsyncThenAsyncStarts() async throws {
        for _ in 0..<50 {
            let factory = AsyncChainFactory()
            let started = await AsyncHangGuard.run("the chain's start") { await startResult(factory) }
            let context = try #require(started).get()
            #expect(factory.runs.value == ["s": 1, "a1": 1, "a2": 1, "a3": 1])
            let s: StartNode = try Sync.object(context, "s")
            #expect(s.next?.key == "a1")
            #expect(s.next?.next?.key == "a2")
            #expect(s.next?.next?.next?.key == "a3")
            #expect(s.next?.next?.next === (try Sync.object(context, "a3", as: StartNode.self)))
            // The synchronous "s" is made last, after the concurrent phase.
            #expect(context.startupReport.entries.last?.key == "s")
        }
    }

    @Test func chainStartupReportListsEachEagerSingletonOnceInTheOrderFinished() async throws {
        for _ in 0..<20 {
            let context = try await ApplicationContext(AsyncChainFactory())
            expectWellFormed(context.startupReport)
        }
    }

    @Test func chainWithASynchronousLinkInTheMiddleIsRejectedByEveryStartNamingTheEdge() async throws {
        for _ in 0..<50 {
            let error = try #require(await asyncError { try await ApplicationContext(BrokenChainFactory()) })
            let found = try #require(error.requiresAwaitKeyAndPath, "expected requiresAwait, got \(error)")
            #expect(found.key == "a3")
            #expect(found.path.suffix(2) == ["m", "a3"], "the edge m → a3: \(found.path)")
            #expect(found.path.first == "a1" || found.path.first == "m", "\(found.path)")
            #expect(error.description.contains("'a3'"))
        }
    }

    @Test func chainWithASynchronousLinkInTheMiddleIsReportedByValidate() async throws {
        for _ in 0..<20 {
            let report = await ApplicationContext.validate(BrokenChainFactory())
            let edges = report.problems.compactMap(\.requiresAwaitKeyAndPath)
            #expect(edges.contains { $0.key == "a3" && $0.path.suffix(2) == ["m", "a3"] }, "\(report)")
        }
        #expect(await ApplicationContext.validate(AsyncChainFactory()).problems == [])
    }

    @Test func synchronousClosureInTheConcurrentPhaseGetsNoAsyncDefinitionEvenAMadeOne() async throws {
        for _ in 0..<20 {
            let error = try #require(await asyncError { try await ApplicationContext(MadeButRestrictedFactory()) })
            let found = try #require(error.requiresAwaitKeyAndPath, "expected requiresAwait, got \(error)")
            #expect(found.key == "a3")
            #expect(found.path == ["a1", "m", "a3"])
        }
        let report = await ApplicationContext.validate(MadeButRestrictedFactory())
        #expect(report.problems.contains { $0.requiresAwaitKeyAndPath?.path.suffix(2) == ["m", "a3"] }, "\(report)")
    }

    @Test(arguments: [false, true])
    func synchronousClosureInTheConcurrentPhaseGetsNoMainActorDefinitionEvenAMadeOne(throughProperty: Bool) async throws {
        let factory = MainActorMadeButRestrictedFactory(throughProperty: throughProperty)
        let lookup = throughProperty ? ["a1", "holder", "injected", "screen"] : ["a1", "holder", "screen"]
        for _ in 0..<20 {
            let error = try #require(await asyncError { try await ApplicationContext(factory) })
            let failure = try #require(error.creationFailure, "expected creationFailed, got \(error)")
            #expect(failure.key == "screen")
            #expect(failure.path == lookup)
            #expect((failure.underlying as? MainActorRequired)?.key == "screen")
        }
        let report = await ApplicationContext.validate(factory)
        #expect(report.problems.contains { $0.creationFailure?.path == lookup }, "\(report)")
    }

    @Test(arguments: ["onMain", "offMain"])
    func aSynchronousClosureGetsNoMainActorDefinitionInTheConcurrentPhaseEvenOnTheMainActor(firstAsker: String) async throws {
        // Docs/Async.md: the outcome of a start never depends on which eager singleton asked first.
        let factory = MainActorAskedEitherWayFactory(firstAsker: firstAsker)
        let error = try #require(await asyncError { try await ApplicationContext(factory) })
        let failure = try #require(error.creationFailure, "expected creationFailed, got \(error)")
        #expect(failure.key == "screen")
        #expect(failure.path.suffix(2) == ["shared", "screen"])
        #expect(failure.underlying is MainActorRequired)
        // Validated one eager singleton after the other: neither waits for the other there.
        let validated = MainActorAskedEitherWayFactory(firstAsker: firstAsker)
        validated.firstAsked.open()
        let report = await ApplicationContext.validate(validated)
        #expect(report.problems.contains { $0.creationFailure?.path.suffix(2) == ["shared", "screen"] }, "\(report)")
    }

    @Test func synchronousClosureInTheConcurrentPhaseGetsMainActorEagerSingletonsOfAStartedParent() async throws {
        let parent = try await ApplicationContext(StartedMainActorParentFactory())
        let child = try await ApplicationContext(ChildOfStartedMainActorFactory(), parent: parent)
        let pool: StartNode = try Sync.object(child, "pool")
        #expect(pool.next?.next === (try Sync.object(parent, "screen", as: StartNode.self)))
        #expect(await ApplicationContext.validate(ChildOfStartedMainActorFactory(), parent: parent).problems == [])
        // A lazy one is not, even once made: the rule does not depend on when it was.
        let lazyParent = try await ApplicationContext(LazyScreenFactory())
        _ = try await lazyParent.object("screen", as: StartNode.self)
        let error = try #require(await asyncError { try await ApplicationContext(ChildOfStartedMainActorFactory(), parent: lazyParent) })
        #expect(error.creationFailure?.path == ["pool", "repository", "screen"], "\(error)")
    }

    @Test func synchronousClosureInTheConcurrentPhaseGetsAsyncEagerSingletonsOfAStartedParent() async throws {
        let parent = try await ApplicationContext(StartedParentFactory())
        let child = try await ApplicationContext(ChildOfStartedFactory(), parent: parent)
        let pool: StartNode = try Sync.object(child, "pool")
        #expect(pool.next?.next === (try Sync.object(parent, "config", as: StartNode.self)))
        #expect(await ApplicationContext.validate(ChildOfStartedFactory(), parent: parent).problems == [])
    }

    // MARK: Failure

    @Test func failingAsyncEagerSingletonCancelsTheOthersReleasesWhatWasMadeAndThrowsTheEarliestDeclaredFailure() async throws {
        let factory = FailingStartFactory()
        let outcome = await AsyncHangGuard.run("a failing start") { await startResult(factory) }
        guard case let .failure(error) = try #require(outcome) else {
            Issue.record("the start did not fail")
            return
        }
        // "waits" was declared first but failed only because it was cancelled: not counted.
        let failure = try #require(error.creationFailure, "expected creationFailed, got \(error)")
        #expect(failure.key == "fails")
        #expect(failure.underlying as? StartFailure == StartFailure(key: "fails"))
        #expect(factory.sawCancellation.value.contains("waits"))
        // The synchronous phase never ran.
        #expect(factory.lateRuns.value == 0)
        // What was made was disposed and released.
        for box in factory.weak {
            #expect(box.object == nil, "'\(box.key)' is still alive")
        }
        #expect(factory.disposals.value >= 2, "'succeeds' and 'pulled' at least")
    }

    @Test func aFailureThatCameAfterTheStartWasCancelledIsNotTheStartsFailure() async throws {
        // Docs/Async.md: "the ones cancelled before their own failure came do not count", also
        // when a closure makes an error of its own of the cancellation.
        for _ in 0..<20 {
            let error = try #require(await asyncError { try await ApplicationContext(CancellationMappedFactory()) })
            let failure = try #require(error.creationFailure, "expected creationFailed, got \(error)")
            #expect(failure.key == "database")
            #expect(failure.underlying as? StartFailure == StartFailure(key: "database"))
        }
    }

    @Test func aFailedStartLeavesNothingBehindAndTheFactoryCanStartAgain() async throws {
        struct Factory: ObjectFactory {
            let attempts = ConcurrencyCounter()
            var definitions: Definitions {
                createEagerSingleton("once") { [attempts] () async throws -> StartNode in
                    attempts.increment()
                    if attempts.value == 1 { throw StartFailure(key: "once") }
                    return StartNode("once")
                }
                createEagerSingleton("fine") { () async -> StartNode in StartNode("fine") }
            }
        }
        let factory = Factory()
        _ = await asyncError { try await ApplicationContext(factory) }
        let context = try await ApplicationContext(factory)
        #expect(try Sync.object(context, "once", as: StartNode.self).key == "once")
        #expect(Set(context.startupReport.entries.map(\.key)) == ["once", "fine"])
    }
}
