#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// When a concurrency test's wait for another thread gives up and reports a hang.
///
/// Never a timing assertion, and not a wall-clock limit either: a wait gives up only once the
/// whole test process has made no progress — used almost no CPU time — for ``stalledSeconds``.
/// A deadlocked test's threads sleep on locks and conditions and use none; a slow but working
/// run (a loaded machine, the thread sanitizer, a starved scheduler) keeps using some, so it is
/// waited for however long it takes. While other tests of a parallel run still work, a deadlock
/// is reported once they are done (or stuck too). See Docs/Testing.md, "Contributing".
public enum ConcurrencyHangGuard {
    /// How long the process must go without progress before a wait calls it a hang.
    public static let stalledSeconds = 120
    /// How often a waiting thread looks for progress.
    public static let sliceSeconds = 5
    /// The CPU time the process must use in one slice for that slice to count as progress:
    /// far more than an idle, deadlocked process uses (5% of one core), far less than a starved
    /// one with a runnable thread gets.
    public static let progressNanoseconds = 250_000_000

    /// Tracks the process's progress for one wait.
    public struct Watch {
        private var lastCPU = Self.processCPUNanoseconds()
        private var stalledSince = Self.monotonicSeconds()

        /// A watch that starts now.
        public init() {}

        /// Called after each slice: `true` once no slice showed progress for `stalledSeconds`.
        public mutating func hasStalled() -> Bool {
            let cpu = Self.processCPUNanoseconds()
            let now = Self.monotonicSeconds()
            defer { lastCPU = cpu }
            if cpu - lastCPU >= ConcurrencyHangGuard.progressNanoseconds {
                stalledSince = now
                return false
            }
            return now - stalledSince >= ConcurrencyHangGuard.stalledSeconds
        }

        private static func processCPUNanoseconds() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
        }

        private static func monotonicSeconds() -> Int {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Int(time.tv_sec)
        }
    }
}

/// A pthread mutex and condition variable, with waits bounded by ``ConcurrencyHangGuard``.
///
/// Pthread objects rather than `Synchronization.Mutex` or `DispatchSemaphore`: the thread
/// sanitizer sees the happens-before edges of pthread calls on every platform, so the tests'
/// own synchronisation never shows up as a race.
public final class ConcurrencyMonitor: @unchecked Sendable {
    // Safe: the pointers are written once in `init`; the pointees are only touched through
    // pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter; call with the mutex held.
    public func broadcastLocked() {
        pthread_cond_broadcast(condition)
    }

    /// With the mutex held: waits until `isDone()` holds or the hang guard gives up (the process
    /// stopped progressing: ``ConcurrencyHangGuard``), and returns `isDone()`.
    public func waitLocked(until isDone: () -> Bool) -> Bool {
        var watch = ConcurrencyHangGuard.Watch()
        while !isDone() {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += ConcurrencyHangGuard.sliceSeconds
            while !isDone() {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            if isDone() { return true }
            if watch.hasStalled() { return false }
        }
        return true
    }
}
