import Foundation
import Testing
import Trellis
import TrellisTestSupport

/// A gate async code waits at (suspending, never blocking a thread) until the test or another
/// closure opens it. Opening is permanent: later waits return at once.
final class AsyncGate: @unchecked Sendable {
    // Safe: `isOpen` and `waiters` are only read or written with `monitor` held; continuations
    // are resumed after it is released, each exactly once (whoever removes it from `waiters`).
    private let monitor = ConcurrencyMonitor()
    private var opened = false
    private var waiters: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID = 0

    func open() {
        let woken = monitor.withLock { () -> [CheckedContinuation<Bool, Never>] in
            opened = true
            defer { waiters = [] }
            return waiters.map(\.continuation)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    var isOpen: Bool { monitor.withLock { opened } }

    /// Suspends until the gate is open.
    func wait() async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumeNow = monitor.withLock { () -> Bool in
                if opened { return true }
                waiters.append((nextID, continuation))
                nextID += 1
                return false
            }
            if resumeNow { continuation.resume(returning: true) }
        }
    }

    /// Suspends until the gate is open or the task is cancelled; `false` when cancelled first.
    func waitUnlessCancelled() async -> Bool {
        let id = monitor.withLock { () -> Int in
            nextID += 1
            return nextID - 1
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let outcome = monitor.withLock { () -> Bool? in
                    if opened { return true }
                    if Task.isCancelled { return false }
                    waiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            let cancelled = monitor.withLock { () -> CheckedContinuation<Bool, Never>? in
                guard let position = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: position).continuation
            }
            cancelled?.resume(returning: false)
        }
    }
}

/// A one-shot async barrier: each of `parties` callers of `arrive()` suspends until all have
/// arrived, so passing it proves that all of them were in flight at once.
final class AsyncBarrier: Sendable {
    private let arrived = ConcurrencyCounter()
    private let gate = AsyncGate()
    let parties: Int

    init(parties: Int) { self.parties = parties }

    func arrive() async {
        arrived.increment()
        if arrived.value >= parties { gate.open() }
        await gate.wait()
    }
}

/// Bounded waits for async tests: a deadlock must fail the test, not hang the suite.
enum AsyncHangGuard {
    /// Runs `body` in a task of its own and returns its result; `nil` (and a recorded issue) if
    /// it did not finish before the hang guard ran out (``ConcurrencyHangGuard``).
    ///
    /// The guard is a dedicated thread, so it fires even when every thread of the cooperative
    /// pool is blocked; if the test cannot even be resumed then (the pool is wedged), the guard
    /// stops the process with a message rather than let it hang.
    static func run<R: Sendable>(_ label: String = "async work", sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () async -> R) async -> R? {
        let slot = Slot<R>()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<R?, Never>) in
            slot.set(continuation)
            Task { slot.finish(await body()) }
            Thread {
                guard !slot.done.wait() else { return }
                slot.finish(nil)
                // The test was resumed with nil; if it never runs again, the pool is wedged.
                if !slot.returned.wait() {
                    fatalError("\(label) hung and the cooperative pool is blocked: deadlock")
                }
            }.start()
        }
        slot.returned.countDown()
        if result == nil { Issue.record("\(label) did not finish: deadlock or hang", sourceLocation: sourceLocation) }
        return result
    }

    private final class Slot<R: Sendable>: @unchecked Sendable {
        // Safe: `continuation` is only read or written with `monitor` held and resumed once
        // (whoever takes it first).
        private let monitor = ConcurrencyMonitor()
        private var continuation: CheckedContinuation<R?, Never>?
        let done = ConcurrencyLatch(count: 1)
        let returned = ConcurrencyLatch(count: 1)

        func set(_ continuation: CheckedContinuation<R?, Never>) {
            monitor.withLock { self.continuation = continuation }
        }

        func finish(_ value: R?) {
            let taken = monitor.withLock { () -> CheckedContinuation<R?, Never>? in
                defer { continuation = nil }
                return continuation
            }
            done.countDown()
            taken?.resume(returning: value)
        }
    }
}

/// The synchronous forms, called from synchronous functions so that Swift picks them even when
/// the test itself is async (in an async function it picks the async overloads).
enum Sync {
    static func object<T>(_ context: ApplicationContext, _ key: String, as type: T.Type = T.self) throws(ContextError) -> T {
        try context.object(key, as: T.self)
    }

    static func object<T>(of type: T.Type, in context: ApplicationContext) throws(ContextError) -> T {
        try context.object(of: T.self)
    }

    static func objects<T>(of type: T.Type, in context: ApplicationContext) throws(ContextError) -> [T] {
        try context.objects(of: T.self)
    }

    static func inject(_ context: ApplicationContext, into object: AnyObject) throws(ContextError) {
        try context.inject(into: object)
    }

    static func start(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) throws(ContextError) -> ApplicationContext {
        try ApplicationContext(factory, parent: parent)
    }

    static func validate(_ factory: some ObjectFactory, parent: ApplicationContext? = nil) -> ValidationReport {
        ApplicationContext.validate(factory, parent: parent)
    }

    static func validate(_ context: ApplicationContext) -> ValidationReport {
        context.validate()
    }

    static func close(_ context: ApplicationContext) throws(ContextError) {
        try context.close()
    }
}

/// The `ContextError` `body` throws, or `nil` (and a recorded issue) when it returns or throws
/// something else.
func asyncError<R>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R) async -> ContextError? {
    do {
        _ = try await body()
        Issue.record("expected a ContextError, got a result", sourceLocation: sourceLocation)
        return nil
    } catch let error as ContextError {
        return error
    } catch {
        Issue.record("expected a ContextError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The `ContextError` `body` throws, or `nil` (and a recorded issue) when it returns or throws
/// something else.
func syncError<R>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R) -> ContextError? {
    do {
        _ = try body()
        Issue.record("expected a ContextError, got a result", sourceLocation: sourceLocation)
        return nil
    } catch let error as ContextError {
        return error
    } catch {
        Issue.record("expected a ContextError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

extension ContextError {
    /// The key and path of a `requiresAwait`, else `nil`.
    var requiresAwaitKeyAndPath: (key: String, path: [String])? {
        if case let .requiresAwait(key, path) = self { return (key, path) }
        return nil
    }

    /// The key, path and underlying error of a `creationFailed`, else `nil`.
    var creationFailure: (key: String, path: [String], underlying: any Error)? {
        if case let .creationFailed(key, path, underlying) = self { return (key, path, underlying) }
        return nil
    }

    /// The path of a `circularDependency`, else `nil`.
    var cyclePath: [String]? {
        if case let .circularDependency(path) = self { return path }
        return nil
    }
}

/// The async start of `factory`, as a value a hang-guarded task can hand back.
func startResult(_ factory: some ObjectFactory) async -> Result<ApplicationContext, ContextError> {
    do throws(ContextError) {
        return .success(try await ApplicationContext(factory))
    } catch {
        return .failure(error)
    }
}
