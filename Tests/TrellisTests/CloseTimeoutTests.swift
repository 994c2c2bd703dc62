#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/RunningAService.md ("A bounded close") and Docs/Lifecycle.md.

/// A disposal that hangs until the test opens `gate` (suspending, never blocking a thread).
private final class HangingDisposal: AsyncDisposable, Sendable {
    let gate: AsyncGate
    let log: DisposalLog
    init(gate: AsyncGate, log: DisposalLog) {
        self.gate = gate
        self.log = log
    }
    func dispose() async {
        log.record("server started disposing")
        await gate.wait()
        log.record("server")
    }
}

private struct ServiceFactory: ObjectFactory {
    let gate: AsyncGate
    let log: DisposalLog

    var definitions: Definitions {
        createSingleton("pool") { [log] in DisposableProbe("pool", log: log) }
        createSingleton("metrics") { [log] in DisposableProbe("metrics", log: log, failing: "flush failed") }
        createEagerSingleton("server") { [gate, log] in HangingDisposal(gate: gate, log: log) }
            .dependsOn("pool", "metrics")
    }
}

/// The bound of `close(timeout:)` without a clock: the wait for the server's disposal ends at
/// once, every other wait only when its disposal ends. On a loaded machine a disposal that
/// returns at once may not be scheduled within a short timeout, so a clock would make the
/// expected failures depend on the load.
private func serverTimesOut(_ timeout: Duration) -> DisposalBound {
    DisposalBound(timeout: timeout) { key in
        if key == "server" { return }
        try? await Task.sleep(for: .seconds(3600))     // cancelled when the disposal ends
    }
}

@Test func aHangingDisposalIsLeftRunningAndReportedAsTimedOut() async throws {
    let gate = AsyncGate(), log = DisposalLog()
    let app = try await ApplicationContext(ServiceFactory(gate: gate, log: log))
    let timeout = Duration.milliseconds(20)
    let error = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(waitingAtMost: serverTimesOut(timeout)) } }
    let failures: [ContextError.DisposalFailure] = [
        .init(key: "server", error: DisposalTimedOut(key: "server", timeout: timeout).description),
        .init(key: "metrics", error: "flush failed"),
    ]
    #expect(error == .some(.some(ContextError.disposalFailed(context: "ServiceFactory", failures: failures))))
    // The rest were disposed in order without waiting for the server, which is still running.
    #expect(log.keys == ["server started disposing", "metrics", "pool"] || log.keys == ["server started disposing", "pool", "metrics"])
    #expect(log.count(of: "server") == 0)
    // Closed when the call returned.
    #expect(syncError { try Sync.object(app, "pool", as: DisposableProbe.self) } == .contextClosed(context: "ServiceFactory", key: "pool"))
    #expect(await finishesInTime { try? await app.close(timeout: timeout) } != nil)
    gate.open()
}

@Test func closeWithATimeoutReportsTheDisposalStillRunningWhenTheTimeoutEnds() async throws {
    let gate = AsyncGate(), log = DisposalLog()
    let app = try await ApplicationContext(ServiceFactory(gate: gate, log: log))
    let timeout = Duration.milliseconds(20)
    let error = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(timeout: timeout) } }
    guard case let .disposalFailed(context, failures)?? = error else {
        Issue.record("expected disposalFailed, got \(String(describing: error))")
        gate.open()
        return
    }
    #expect(context == "ServiceFactory")
    // The server hangs until the gate opens: its wait always ends first. (Whether the quick
    // disposals end within 20 ms depends on the machine's load; the test above pins them.)
    #expect(failures.first == .init(key: "server", error: DisposalTimedOut(key: "server", timeout: timeout).description))
    #expect(log.count(of: "server") == 0)
    gate.open()
}

@Test func theLeftDisposalFinishesOnItsOwn() async throws {
    let gate = AsyncGate(), log = DisposalLog()
    let app = try await ApplicationContext(ServiceFactory(gate: gate, log: log))
    _ = await finishesInTime { try? await app.close(timeout: .milliseconds(10)) }
    let finished = await finishesInTime { () async -> Bool in
        gate.open()
        while log.count(of: "server") == 0 { await Task.yield() }
        return true
    }
    #expect(finished == true)
}

@Test func aCloseWithATimeoutWaitsForACloseUnderWayAtMostItsTimeout() async throws {
    let gate = AsyncGate(), log = DisposalLog()
    let app = try await ApplicationContext(ServiceFactory(gate: gate, log: log))
    // An unbounded close, held by the server's disposal until the gate opens.
    let first = Task { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close() } }
    let started = await finishesInTime { () async -> Bool in
        while !log.keys.contains("server started disposing") { await Task.yield() }
        return true
    }
    try #require(started == true)
    // The bounded close's wait for it ends at once (no clock): it returns, the first still waits.
    let bound = DisposalBound(timeout: .milliseconds(1)) { _ in }
    let second = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(waitingAtMost: bound) } }
    #expect(second == .some(nil), "the bounded close waited for the unbounded one")
    #expect(log.count(of: "server") == 0)
    gate.open()
    #expect(await first.value == .disposalFailed(context: "ServiceFactory", failures: [.init(key: "metrics", error: "flush failed")]))
}

@Test func aCloseWithATimeoutWaitsForDisposalsThatEndInTime() async throws {
    let gate = AsyncGate(), log = DisposalLog()
    gate.open()
    let app = try await ApplicationContext(ServiceFactory(gate: gate, log: log))
    let error = await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(timeout: .seconds(600)) }
    #expect(error == .disposalFailed(context: "ServiceFactory", failures: [.init(key: "metrics", error: "flush failed")]))
    #expect(log.keys.first == "server started disposing")
    #expect(log.keys.dropFirst().first == "server")
    #expect(Set(log.keys) == ["server started disposing", "server", "metrics", "pool"])
}

@Test func disposalTimedOutIsEquatableAndDescribesTheWait() {
    let error = DisposalTimedOut(key: "pool", timeout: .seconds(5))
    #expect(error == DisposalTimedOut(key: "pool", timeout: .seconds(5)))
    #expect(error != DisposalTimedOut(key: "pool", timeout: .seconds(6)))
    #expect(error.description == "still disposing after 5.0 seconds; left running")
}

/// A synchronous `dispose()` that blocks until the test releases it (and never gives up).
private final class BlockingDisposal: Disposable, Sendable {
    let release: ConcurrencyLatch
    init(release: ConcurrencyLatch) { self.release = release }
    func dispose() {
        while !release.wait() {}
    }
}

private struct BlockingFactory: ObjectFactory {
    let release: ConcurrencyLatch
    var definitions: Definitions {
        createEagerSingleton("socket") { [release] in BlockingDisposal(release: release) }
    }
}

/// The body of the exit test below: 64 contexts (more than the cooperative pool has threads on
/// any machine) each leave a blocking `dispose()` running; tasks must still run afterwards.
/// Exits with 1 when the process stalls (the blocked disposals hold the pool).
private func blockingDisposalsLeftRunning() async {
    let finished = ConcurrencyLatch(count: 1)
    _ = ConcurrencyThreads.start(1) { _ in
        if !finished.wait() {
            print("hang: the disposals left running hold the threads the tasks need")
            exit(1)
        }
    }
    let release = ConcurrencyLatch(count: 1)
    for _ in 0..<64 {
        guard let context = try? await ApplicationContext(BlockingFactory(release: release)) else { exit(2) }
        let bound = DisposalBound(timeout: .milliseconds(1)) { _ in }     // the wait ends at once
        let error = await thrownContextErrorAsync { () async throws(ContextError) in try await context.close(waitingAtMost: bound) }
        guard case .disposalFailed? = error else { exit(3) }
    }
    // Work that needs the pool: a task group of child tasks.
    let sum = await withTaskGroup(of: Int.self) { group in
        for value in 0..<8 { group.addTask { value } }
        return await group.reduce(0, +)
    }
    finished.countDown()
    release.countDown()
    if sum != 28 { exit(4) }
}

/// In a child process, because a regression stalls the whole cooperative pool.
@Test func blockingSynchronousDisposalsLeftRunningByACloseWithATimeoutDoNotHoldThePool() async {
    await #expect(processExitsWith: .success) {
        await blockingDisposalsLeftRunning()
    }
}

private final class Payload: Sendable {}

/// `HeldFactory` with another singleton beside the held disposal.
private struct HeldWithPayloadFactory: ObjectFactory {
    let held: HeldDisposal
    var definitions: Definitions {
        createEagerSingleton("payload") { Payload() }
        createEagerSingleton("socket") { [held] in held }
    }
}

@Test func aSynchronousDisposalLeftRunningKeepsOnlyItsOwnObjectAlive() async throws {
    // Docs/Lifecycle.md: nothing outlives a context nobody references; a disposal left running
    // by a bounded close holds its own object, not the context and its other singletons.
    let held = HeldDisposal()
    defer { held.release.countDown() }
    weak var weakContext: ApplicationContext?
    weak var weakPayload: Payload?
    do {
        let app = try await ApplicationContext(HeldWithPayloadFactory(held: held))
        weakContext = app
        weakPayload = try await app.object("payload", as: Payload.self)
        let bound = DisposalBound(timeout: .milliseconds(1)) { _ in }     // the wait ends at once
        let error = await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(waitingAtMost: bound) }
        guard case .disposalFailed? = error else { Issue.record("expected the disposal reported as timed out, got \(String(describing: error))"); return }
    }
    #expect(weakContext == nil, "the closed context is kept alive by the disposal left running")
    #expect(weakPayload == nil, "another singleton is kept alive by the disposal left running")
}

// MARK: - Closing from inside, cancelled, and without end

/// A synchronous disposal that closes its own context, which `box` holds.
private final class SelfClosing: Disposable, Sendable {
    let box: Guarded<ApplicationContext?>
    let log: DisposalLog
    init(box: Guarded<ApplicationContext?>, log: DisposalLog) {
        self.box = box
        self.log = log
    }
    func dispose() throws {
        try box.value?.close()
        log.record("closer")
    }
}

private struct SelfClosingFactory: ObjectFactory {
    let box: Guarded<ApplicationContext?>
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("closer") { [box, log] in SelfClosing(box: box, log: log) }
    }
}

@Test func aCloseFromInsideASynchronousDisposalOfABoundedCloseReturnsAtOnce() async throws {
    // Docs/Lifecycle.md: a close called from inside the context's own closing returns at once,
    // also when the bounded close runs the disposal on a thread of its own.
    let box = Guarded<ApplicationContext?>(nil), log = DisposalLog()
    let app = try await ApplicationContext(SelfClosingFactory(box: box, log: log))
    box.withLock { $0 = app }
    let never = DisposalBound(timeout: .seconds(3600)) { _ in await AsyncGate().wait() }
    let error = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(waitingAtMost: never) } }
    try #require(error != nil, "the close waited for itself")
    #expect(error! == nil)
    #expect(log.keys == ["closer"])
    box.withLock { $0 = nil }
}

/// An async disposal that takes a few turns of the executor, then records its end.
private final class DrainingServer: AsyncDisposable, Sendable {
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() async {
        log.record("server started")
        for _ in 0..<50 { await Task.yield() }
        log.record("server")
    }
}

private struct DrainingFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("pool") { [log] in DisposableProbe("pool", log: log) }
        createEagerSingleton("server") { [log] in DrainingServer(log: log) }.dependsOn("pool")
    }
}

@Test func aBoundedCloseInACancelledTaskStillWaitsInOrderAndReportsNoTimeout() async throws {
    // Docs/RunningAService.md: cancellation does not shorten the bound; `pool` is disposed only
    // after the server that depends on it has finished.
    let log = DisposalLog()
    let app = try await ApplicationContext(DrainingFactory(log: log))
    let closed = await finishesInTime { () async -> ContextError? in
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(timeout: .seconds(3600)) }
        }.value
    }
    let error = try #require(closed, "the close did not return")
    #expect(error == nil)
    #expect(log.keys == ["server started", "server", "pool"])
}

/// An async disposal that fails if it sees its task cancelled.
private final class CancellationSensitiveServer: AsyncDisposable, Sendable {
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() async throws {
        await Task.yield()
        try Task.checkCancellation()
        log.record("server")
    }
}

private struct CancellationSensitiveFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("pool") { [log] in DisposableProbe("pool", log: log) }
        createEagerSingleton("server") { [log] in CancellationSensitiveServer(log: log) }.dependsOn("pool")
    }
}

/// A synchronous disposal that notes whether it ran in a cancelled task.
private final class CancellationObserver: Disposable, Sendable {
    let sawCancellation = Guarded<Bool?>(nil)
    func dispose() { sawCancellation.withLock { $0 = Task.isCancelled } }
}

private struct ObservedFactory: ObjectFactory {
    let observer: CancellationObserver
    var definitions: Definitions { createEagerSingleton("observer") { [observer] in observer } }
}

@Test func aCloseInACancelledTaskDoesNotCancelItsSynchronousDisposalsEither() async throws {
    // Docs/RunningAService.md: the disposals do not see the closer's cancellation.
    let observer = CancellationObserver()
    let app = try await ApplicationContext(ObservedFactory(observer: observer))
    let closed = await finishesInTime { () async -> ContextError? in
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await thrownContextErrorAsync { () async throws(ContextError) in try await app.close() }
        }.value
    }
    try #require(closed != nil, "the close did not return")
    #expect(observer.sawCancellation.value == false)
}

@Test(arguments: [false, true])
func aCloseInACancelledTaskDoesNotCancelItsDisposals(bounded: Bool) async throws {
    // Docs/RunningAService.md: cancellation does not shorten a close; the disposals do not see it.
    let log = DisposalLog()
    let app = try await ApplicationContext(CancellationSensitiveFactory(log: log))
    let closed = await finishesInTime { () async -> ContextError? in
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await thrownContextErrorAsync { () async throws(ContextError) in
                if bounded { try await app.close(timeout: .seconds(3600)) } else { try await app.close() }
            }
        }.value
    }
    let error = try #require(closed, "the close did not return")
    #expect(error == nil)
    #expect(log.keys == ["server", "pool"])
}

@Test func aBoundedCloseWithTheLongestTimeoutThereIsDisposesNormally() async throws {
    let log = DisposalLog()
    let app = try await ApplicationContext(DrainingFactory(log: log))
    let error = await finishesInTime { await thrownContextErrorAsync { () async throws(ContextError) in try await app.close(timeout: .seconds(Int64.max)) } }
    #expect(error == .some(nil))
    #expect(log.keys == ["server started", "server", "pool"])
}
