#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a concurrency test waits for another thread before it reports a hang as a failure.
///
/// A guard against a deadlock hanging the suite, never a timing assertion: a healthy run waits
/// far less, however loaded the machine.
enum ConcurrencyHangGuard {
    static let seconds = 120
}

/// A pthread mutex and condition variable, with waits bounded by ``ConcurrencyHangGuard``.
///
/// Pthread objects rather than `Synchronization.Mutex` or `DispatchSemaphore`: the thread
/// sanitizer sees the happens-before edges of pthread calls on every platform, so the tests'
/// own synchronisation never shows up as a race.
final class ConcurrencyMonitor: @unchecked Sendable {
    // Safe: the pointers are written once in `init`; the pointees are only touched through
    // pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
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
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter; call with the mutex held.
    func broadcastLocked() {
        pthread_cond_broadcast(condition)
    }

    /// With the mutex held: waits until `isDone()` holds or the hang guard runs out, and returns
    /// `isDone()`.
    func waitLocked(until isDone: () -> Bool) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += ConcurrencyHangGuard.seconds
        while !isDone() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return isDone() }
        }
        return true
    }
}

/// A value guarded by a ``ConcurrencyMonitor``, for collecting what test threads saw.
final class ConcurrencyGuarded<Value>: @unchecked Sendable {
    // Safe: `value` is only read or written with `monitor` held. Values that are not `Sendable`
    // (test objects) are handed over once, then read by the test after the threads finished.
    private let monitor = ConcurrencyMonitor()
    private var stored: Value

    init(_ value: Value) { stored = value }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try monitor.withLock { () throws(E) -> R in try body(&stored) }
    }

    var value: Value { monitor.withLock { stored } }
}
