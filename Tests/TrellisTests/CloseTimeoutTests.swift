import Testing
@testable import Trellis

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
