import Foundation
import Synchronization
import TrellisTestSupport

/// Runs test bodies on dedicated threads.
///
/// Real threads, not `concurrentPerform` or tasks: a barrier of eight parties needs eight threads
/// running at once, which neither a pool sized to the cores nor the cooperative pool promises.
enum ConcurrencyThreads {
    /// Starts `body(0)`, …, `body(count - 1)`, each on its own thread, and returns a latch that
    /// opens when all have returned.
    static func start(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> ConcurrencyLatch {
        let done = ConcurrencyLatch(count: count)
        for index in 0..<count {
            Thread {
                body(index)
                done.countDown()
            }.start()
        }
        return done
    }

    /// Runs `body(0)`, …, `body(count - 1)`, each on its own thread, and waits for them; `false`
    /// if they did not all return before the hang guard ran out (a deadlock).
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
        start(count, body).wait()
    }
}

/// A thread-safe counter of how often a definition's closure ran.
final class ConcurrencyCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() { count.add(1, ordering: .sequentiallyConsistent) }

    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

/// A thread-safe flag a test flips between rounds.
final class ConcurrencyFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() { flag.store(true, ordering: .sequentiallyConsistent) }

    var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
}

/// Which of several closures have run once already, so that only their first run meets the
/// others at a barrier (a retry after a failure must not wait for a party that is gone).
final class ConcurrencyFirstRuns: Sendable {
    private let claimed = Guarded<Set<Int>>([])

    /// `true` exactly once per `position`.
    func claim(_ position: Int) -> Bool {
        claimed.withLock { $0.insert(position).inserted }
    }
}

/// A weak reference made on one thread and checked by the test afterwards.
final class ConcurrencyWeak: @unchecked Sendable {
    // Safe: written once on the thread that made the object, read by the test after that thread
    // finished (the thread's finish latch orders the two).
    private(set) weak var object: AnyObject?
    let label: String

    init(_ object: AnyObject, _ label: String) {
        self.object = object
        self.label = label
    }
}

/// Runs `body` on a dedicated thread and suspends until it returns, without blocking a thread
/// of the cooperative pool; `nil` if the hang guard gave up waiting (``ConcurrencyHangGuard``:
/// the process stopped progressing, a deadlock), never because the machine is slow.
func finishesOnAThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R? {
    let result = Guarded<R?>(nil)
    let done = ConcurrencyThreads.start(1) { _ in
        let value = body()
        result.withLock { $0 = value }
    }
    return await opensInTime(done) ? result.value : nil
}
