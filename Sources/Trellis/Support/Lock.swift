#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex and a condition variable over `pthread_mutex_t` / `pthread_cond_t`.
///
/// Not `Synchronization.Mutex`: on Linux the thread sanitizer cannot see that one and reports
/// false races, and CI runs under the sanitizer. The pthread objects live on the heap because
/// they must never move once initialised.
final class Lock: @unchecked Sendable {
    // Safe: the pointers are written once in `init` and freed in `deinit`; every access to the
    // pointees goes through pthread calls, which are thread-safe by definition.
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

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held.
    @inline(__always)
    func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for `broadcast()`; the mutex must be held and is held again on return.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread in `wait()`.
    func broadcast() { pthread_cond_broadcast(condition) }
}

/// A value guarded by its own `Lock`.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only read or written inside `lock.withLock`.
    private var value: Value
    private let lock = Lock()

    init(_ value: Value) { self.value = value }

    func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(&value) }
    }
}
