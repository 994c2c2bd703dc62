import Testing
import Trellis
import TrellisTestSupport

// Docs/Lifecycle.md: a close() from inside the closing returns at once; every other close
// disposes what its context made.

/// An async disposal that starts a task (a "flush later"), which runs `work` once the test opens
/// `gate`: after the close that started it returned and the context is gone.
private final class FlushLater: AsyncDisposable, @unchecked Sendable {
    // Safe: `task` is written by `dispose()` and read by the test after the close returned.
    let gate = AsyncGate()
    let work: @Sendable () async -> Void
    var task: Task<Void, Never>?
    init(work: @escaping @Sendable () async -> Void) { self.work = work }
    func dispose() async {
        task = Task { [gate, work] in
            await gate.wait()
            await work()
        }
    }
}

private struct FlushingFactory: ObjectFactory {
    let flush: FlushLater
    var definitions: Definitions { createEagerSingleton("flush") { [flush] in flush } }
}

private struct ProbeFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions { createEagerSingleton("probe") { [log] in DisposableProbe("probe", log: log) } }
}

@Test func aTaskStartedByADisposalClosesAContextMadeWhereTheClosedOneWas() async throws {
    // Another close under way in the process meanwhile, as a server closes its request contexts.
    let held = HeldDisposal()
    let busy = try await ApplicationContext(HeldFactory(held: held))
    let busyClosed = ConcurrencyThreads.start(1) { _ in try? busy.close() }
    try #require(await opensInTime(held.entered))

    let outcome = Guarded<String>("no context was made where the closed one was")
    let closedBox = Guarded<ApplicationContext?>(nil)
    let flush = FlushLater {
        // The task inherited the old close's task-locals. It drops the closed context, and a
        // context made at the freed address (the allocator hands it out again on this thread) is
        // a different context: its close disposes.
        let closedAddress = closedBox.value.map(ObjectIdentifier.init)
        closedBox.withLock { $0 = nil }
        var kept: [ApplicationContext] = []
        for _ in 0..<1_000 {
            let log = DisposalLog()
            guard let context = try? Sync.start(ProbeFactory(log: log)) else { break }
            guard ObjectIdentifier(context) == closedAddress else {
                kept.append(context)
                continue
            }
            try? await context.close()
            outcome.withLock { $0 = log.keys == ["probe"] ? "disposed" : "not disposed: \(log.keys)" }
            break
        }
        withExtendedLifetime(kept) {}
    }
    do {
        let closed = try await ApplicationContext(FlushingFactory(flush: flush))
        try await closed.close()
        closedBox.withLock { $0 = closed }
    }
    flush.gate.open()
    await flush.task?.value
    held.release.countDown()
    try #require(await opensInTime(busyClosed))
    #expect(!outcome.value.hasPrefix("not disposed"), "\(outcome.value)")
}
