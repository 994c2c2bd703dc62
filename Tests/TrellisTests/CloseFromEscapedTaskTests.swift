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

/// A synchronous disposal that blocks its closing thread until the test opens `release`.
private final class HeldOpen: Disposable, Sendable {
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)
    func dispose() {
        entered.countDown()
        _ = release.wait()
    }
}

private struct HeldOpenFactory: ObjectFactory {
    let held: HeldOpen
    var definitions: Definitions { createEagerSingleton("held") { [held] in held } }
}

@Test func aTaskStartedByADisposalClosesAContextMadeWhereTheClosedOneWas() async throws {
    // Another close under way in the process meanwhile, as a server closes its request contexts.
    let held = HeldOpen()
    let busy = try await ApplicationContext(HeldOpenFactory(held: held))
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

/// `first`'s synchronous `dispose()` starts a task that closes the context again; `second`,
/// disposed after it, waits until that close returned.
private final class ClosesAgainLater: Disposable, Sendable {
    let box: Guarded<ApplicationContext?>
    let returned: ConcurrencyLatch
    init(box: Guarded<ApplicationContext?>, returned: ConcurrencyLatch) {
        self.box = box
        self.returned = returned
    }
    func dispose() {
        let context = box.value
        Task {
            try? await context?.close()
            returned.countDown()
        }
    }
}

private final class WaitsForTheLaterClose: Disposable, Sendable {
    let returned: ConcurrencyLatch
    init(returned: ConcurrencyLatch) { self.returned = returned }
    func dispose() {
        if !returned.wait() {
            print("hang: the close started by a dispose() waited for the close it was started in")
            exit(1)
        }
    }
}

private struct ClosesAgainFactory: ObjectFactory {
    let box = Guarded<ApplicationContext?>(nil)
    let returned = ConcurrencyLatch(count: 1)
    var definitions: Definitions {
        // Made first, so disposed last: after `first`.
        createEagerSingleton("second") { [returned] in WaitsForTheLaterClose(returned: returned) }
        createEagerSingleton("first") { [box, returned] in ClosesAgainLater(box: box, returned: returned) }
    }
}

/// Docs/Lifecycle.md: a task a `dispose()` starts inherits the closing, so its `close()` of the
/// same context returns at once, also when every disposal is synchronous. In a child process: a
/// regression holds a thread of the pool (the awaited close's) until the hang guard gives up.
@Test func aTaskStartedByASynchronousDisposalInheritsTheAwaitedClosesScope() async {
    await #expect(processExitsWith: .success) {
        let factory = ClosesAgainFactory()
        guard let context = try? await ApplicationContext(factory) else { exit(2) }
        factory.box.withLock { $0 = context }
        try? await context.close()
        factory.box.withLock { $0 = nil }
    }
}
