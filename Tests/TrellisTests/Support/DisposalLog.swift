import Trellis
import TrellisTestSupport

/// The keys of disposed objects, in the order their `dispose()` ran, from any thread or task.
final class DisposalLog: Sendable {
    private let entries = Guarded<[String]>([])

    func record(_ key: String) { entries.withLock { $0.append(key) } }

    /// Every disposal so far, in order.
    var keys: [String] { entries.value }

    /// How often `key` was disposed.
    func count(of key: String) -> Int { keys.filter { $0 == key }.count }
}

/// What a test double's `dispose()` throws; its description is what `disposalFailed` reports.
struct DisposalProbeFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

/// A singleton that records its disposal, and throws `failure` from `dispose()` when given one.
/// It keeps its dependencies, as a real object would.
final class DisposableProbe: Disposable, Sendable {
    let key: String
    let log: DisposalLog
    let failure: String?
    let dependencies: [DisposableProbeDependency]

    init(_ key: String, log: DisposalLog, failing failure: String? = nil, dependencies: [any Sendable] = []) {
        self.key = key
        self.log = log
        self.failure = failure
        self.dependencies = dependencies.map(DisposableProbeDependency.init)
    }

    func dispose() throws {
        log.record(key)
        if let failure { throw DisposalProbeFailure(reason: failure) }
    }
}

/// A dependency a probe holds on to (only so that it stays referenced, as in a real graph).
struct DisposableProbeDependency: Sendable {
    let value: any Sendable
}

/// A singleton disposed asynchronously: `dispose()` suspends once before it records itself.
final class AsyncDisposableProbe: AsyncDisposable, Sendable {
    let key: String
    let log: DisposalLog
    let failure: String?
    let dependencies: [DisposableProbeDependency]

    init(_ key: String, log: DisposalLog, failing failure: String? = nil, dependencies: [any Sendable] = []) {
        self.key = key
        self.log = log
        self.failure = failure
        self.dependencies = dependencies.map(DisposableProbeDependency.init)
    }

    func dispose() async throws {
        await Task.yield()
        log.record(key)
        if let failure { throw DisposalProbeFailure(reason: failure) }
    }
}

/// Runs `body` in an unstructured task and waits for it without blocking a thread of the
/// cooperative pool (a dedicated thread waits, bounded by ``ConcurrencyHangGuard``); `nil` if it
/// did not finish in time (a hang).
func finishesInTime<R: Sendable>(_ body: @escaping @Sendable () async -> R) async -> R? {
    let result = Guarded<R?>(nil)
    let done = ConcurrencyLatch(count: 1)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.countDown()
    }
    let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        _ = ConcurrencyThreads.start(1) { _ in continuation.resume(returning: done.wait()) }
    }
    return finished ? result.value : nil
}

/// Waits for `latch` on a dedicated thread, so a test running in a task never blocks a thread of
/// the cooperative pool; `false` if the hang guard ran out.
func opensInTime(_ latch: ConcurrencyLatch) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        _ = ConcurrencyThreads.start(1) { _ in continuation.resume(returning: latch.wait()) }
    }
}

/// The error of `body`, as a `ContextError`, or `nil` if it returned.
func thrownContextError(_ body: () throws(ContextError) -> Void) -> ContextError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The error of an async `body`, as a `ContextError`, or `nil` if it returned.
func thrownContextErrorAsync(_ body: () async throws(ContextError) -> Void) async -> ContextError? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

/// `context.close()`, the synchronous form, callable from async tests (where Swift would pick the
/// async overload).
func closeSynchronously(_ context: ApplicationContext) throws(ContextError) {
    try context.close()
}

/// A synchronous disposal that tells the test it began (`entered`), then blocks its thread until
/// the test opens `release`: a close held in the middle of its disposals.
final class HeldDisposal: Disposable, Sendable {
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)
    func dispose() {
        entered.countDown()
        _ = release.wait()
    }
}

/// A context of one eager `HeldDisposal`, `held`, named `Service`.
struct HeldFactory: ObjectFactory {
    let held: HeldDisposal
    var contextName: String { "Service" }
    var definitions: Definitions { createEagerSingleton("held") { [held] in held } }
}
