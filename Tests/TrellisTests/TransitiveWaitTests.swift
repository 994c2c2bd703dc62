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

// Docs/Async.md ("What suspends and what blocks") and Docs/Concurrency.md ("Main-actor
// definitions"): a synchronous lookup in a task never waits for work that has suspended, and one
// on the main actor never waits for a lookup waiting to hop there — also when it would wait for it
// through another making: a thread making `outer`, which waits for `inner`, whose maker has
// suspended (or waits for the main actor).

private final class TransitiveLeaf: Sendable {}

/// Synchronous, with a property only an async lookup (or the main actor) can fill: an awaited
/// lookup making it suspends while injecting it.
private final class TransitiveInner: @unchecked Sendable {
    // Safe: injected by its context before anyone else sees it.
    @Inject var leaf: TransitiveLeaf
}

private final class TransitiveOuter: Sendable {
    let inner: TransitiveInner
    init(_ inner: TransitiveInner) { self.inner = inner }
}

@MainActor private final class TransitiveModel {}

private final class TransitiveScreen: @unchecked Sendable {
    // Safe: as `TransitiveInner`.
    @Inject var model: TransitiveModel
}

private final class TransitiveScreenHolder: Sendable {
    let screen: TransitiveScreen
    init(_ screen: TransitiveScreen) { self.screen = screen }
}

/// `leaf` is async and waits at `gate`; `inner` injects it; `outer`'s closure asks for `inner`.
/// `screen` injects the main-actor `model`; `holder`'s closure asks for `screen`. `deep0` →
/// `deep1` → … → `inner`: a chain too deep for one thread's stack.
private struct TransitiveFactory: ObjectFactory {
    static let depth = 10_000
    /// `outer` and `holder` ask through the context itself (a nested lookup), not their resolver.
    var nested = false
    let box = Guarded<ApplicationContext?>(nil)
    let leafEntered = ConcurrencyLatch(count: 1)
    let gate = AsyncGate()
    let outerEntered = ConcurrencyLatch(count: 1)
    let screenMade = ConcurrencyLatch(count: 1)
    let holderEntered = ConcurrencyLatch(count: 1)

    var definitions: Definitions {
        createSingleton("leaf") { [leafEntered, gate] () async -> TransitiveLeaf in
            leafEntered.countDown()
            await gate.wait()
            return TransitiveLeaf()
        }
        createSingleton("inner") { TransitiveInner() }
        createSingleton("outer") { [outerEntered, nested, box] r in
            outerEntered.countDown()
            return TransitiveOuter(try nested ? box.value!.object("inner") : r.object("inner"))
        }
        createMainActorSingleton("model") { TransitiveModel() }
        createSingleton("screen") { [screenMade] () -> TransitiveScreen in
            defer { screenMade.countDown() }
            return TransitiveScreen()
        }
        createSingleton("holder") { [holderEntered, nested, box] r in
            holderEntered.countDown()
            return TransitiveScreenHolder(try nested ? box.value!.object("screen") : r.object("screen"))
        }
        for level in 0..<(Self.depth - 1) {
            createSingleton("deep\(level)") { r in try r.object("deep\(level + 1)", as: TransitiveOuter.self) }
        }
        createSingleton("deep\(Self.depth - 1)") { r in TransitiveOuter(try r.object("inner")) }
    }
}

/// Exits with 1 if the process stops making progress (a wait that never ends).
private func hangGuard() -> ConcurrencyLatch {
    let finished = ConcurrencyLatch(count: 1)
    _ = ConcurrencyThreads.start(1) { _ in
        if !finished.wait() {
            print("hang: a synchronous lookup waited for work that cannot go on while it waits")
            exit(1)
        }
    }
    return finished
}

/// The body of the first exit test: a task's synchronous lookup of `outer`, which a thread is
/// making and which waits for `inner`, whose awaited maker has suspended on `leaf`. Exits with 0
/// when the lookup is refused with `requiresAwait` instead of waiting.
private func taskLookupThroughAThreadWaitingForSuspendedWork(nested: Bool) async {
    let finished = hangGuard()
    let factory = TransitiveFactory(nested: nested)
    guard let context = try? await ApplicationContext(factory) else { exit(2) }
    factory.box.withLock { $0 = context }
    let maker = Task { try await context.object("inner", as: TransitiveInner.self) }
    guard await opensInTime(factory.leafEntered) else { exit(3) }
    let thread = ConcurrencyThreads.start(1) { _ in _ = try? context.object("outer", as: TransitiveOuter.self) }
    guard await opensInTime(factory.outerEntered) else { exit(4) }
    let answer = await Task { thrownContextError { () throws(ContextError) in _ = try Sync.object(context, "outer", as: TransitiveOuter.self) } }.value
    factory.gate.open()
    _ = try? await maker.value
    guard await opensInTime(thread) else { exit(5) }
    finished.countDown()
    // The thread itself no longer waits for `inner` (Docs/Async.md: no synchronous caller
    // blocks for work that has suspended), so its `outer` may have failed already: then the
    // task's own making of `outer` is refused at `inner`.
    guard case let .requiresAwait(key, _)? = answer, key == "outer" || key == "inner" else {
        print("answered \(String(describing: answer))")
        exit(6)
    }
}

/// The body of the third: as the first, but the task asks for `deep0`, whose chain reaches
/// `inner` on a thread of a fresh stack, which waits for the task.
private func deepTaskLookupOfSuspendedWork() async {
    let finished = hangGuard()
    let factory = TransitiveFactory()
    guard let context = try? await ApplicationContext(factory) else { exit(2) }
    let maker = Task { try await context.object("inner", as: TransitiveInner.self) }
    guard await opensInTime(factory.leafEntered) else { exit(3) }
    let answer = await Task { thrownContextError { () throws(ContextError) in _ = try Sync.object(context, "deep0", as: TransitiveOuter.self) } }.value
    factory.gate.open()
    _ = try? await maker.value
    finished.countDown()
    guard case let .requiresAwait(key, path)? = answer, key == "inner", path.count == TransitiveFactory.depth + 1 else {
        print("answered \(String(describing: answer).prefix(300))")
        exit(6)
    }
}

/// The body of the second: the main actor's synchronous lookup of `holder`, which a thread is
/// making and which waits for `screen`, whose awaited maker waits to hop onto the main actor for
/// `model`. Exits with 0 when it is refused with `requiresAwait` instead of waiting.
private func mainActorLookupThroughAThreadWaitingForAHop(nested: Bool) async {
    let finished = hangGuard()
    let factory = TransitiveFactory(nested: nested)
    guard let context = try? await ApplicationContext(factory) else { exit(2) }
    factory.box.withLock { $0 = context }
    let answer = await MainActor.run { () -> ContextError? in
        // The main actor stays busy from here to the answer: the maker's hop waits for it.
        let maker = Task.detached { try await context.object("screen", as: TransitiveScreen.self) }
        guard factory.screenMade.wait() else { exit(3) }
        _ = ConcurrencyThreads.start(1) { _ in _ = try? context.object("holder", as: TransitiveScreenHolder.self) }
        guard factory.holderEntered.wait() else { exit(4) }
        let answer = thrownContextError { () throws(ContextError) in _ = try Sync.object(context, "holder", as: TransitiveScreenHolder.self) }
        _ = maker
        return answer
    }
    finished.countDown()
    guard case let .requiresAwait(key, _)? = answer, key == "holder" else {
        print("answered \(String(describing: answer))")
        exit(6)
    }
}

@Suite struct TransitiveWaitTests {
    /// In a child process: a regression blocks a thread of the pool (or the main actor) for good.
    /// Through the thread's closure's resolver, or a lookup it makes on the context itself.
    @Test func aTaskDoesNotWaitThroughAThreadForWorkThatHasSuspended() async {
        await #expect(processExitsWith: .success) {
            await taskLookupThroughAThreadWaitingForSuspendedWork(nested: false)
        }
        await #expect(processExitsWith: .success) {
            await taskLookupThroughAThreadWaitingForSuspendedWork(nested: true)
        }
    }

    @Test func aTaskDoesNotWaitForWorkThatHasSuspendedAtTheEndOfAChainTooDeepForItsStack() async {
        await #expect(processExitsWith: .success) {
            await deepTaskLookupOfSuspendedWork()
        }
    }

    @Test func theMainActorDoesNotWaitThroughAThreadForALookupWaitingToHopThere() async {
        await #expect(processExitsWith: .success) {
            await mainActorLookupThroughAThreadWaitingForAHop(nested: false)
        }
        await #expect(processExitsWith: .success) {
            await mainActorLookupThroughAThreadWaitingForAHop(nested: true)
        }
    }
}
