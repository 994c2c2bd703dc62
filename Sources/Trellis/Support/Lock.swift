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
///
/// A struct of one pointer rather than a class: using a lock kept in a global (the
/// coordinator's, taken by every context made per request) retains nothing. Whoever makes one
/// with `make()` frees it with `destroy()`, or keeps it for the process.
struct Lock: @unchecked Sendable {
    /// The mutex, the condition and the count of waiters, in one allocation: a start of a
    /// context made per request makes a lock for its report, and three allocations (one per
    /// pthread object) were a tenth of what an eager singleton added to such a context.
    private struct Storage {
        var mutex = pthread_mutex_t()
        var condition = pthread_cond_t()
        /// How many threads are in `wait()`: read and written with the mutex held only, so a
        /// `broadcast()` with nobody waiting (a singleton published in a context nobody else
        /// uses) skips the call.
        var waiting = 0
    }

    // Safe: the pointer is written once in `make` and freed by `destroy`; the pthread objects
    // are used through pthread calls only, which are thread-safe by definition, and `waiting`
    // with the mutex held only.
    private let storage: UnsafeMutablePointer<Storage>

    @inline(__always) private var mutex: UnsafeMutablePointer<pthread_mutex_t> { storage.pointer(to: \.mutex)! }
    @inline(__always) private var condition: UnsafeMutablePointer<pthread_cond_t> { storage.pointer(to: \.condition)! }

    /// A new lock, to be freed with `destroy()` (or never, for one that lives as long as the
    /// process).
    static func make() -> Lock {
        let lock = Lock(storage: .allocate(capacity: 1))
        lock.storage.initialize(to: Storage())
        #if canImport(Glibc)
        // Adaptive: a thread that finds the mutex taken spins a little before it sleeps. Every
        // critical section here is short, so a waiter rarely has to sleep, where a plain mutex
        // puts it to sleep in the kernel at once and wakes it with a system call. Two threads
        // making request contexts under one application (Docs/Performance.md,
        // `concurrent-requests`) do 1.5 times what one thread does with it, 1.16 times without.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(lock.mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        pthread_mutex_init(lock.mutex, nil)
        #endif
        pthread_cond_init(lock.condition, nil)
        return lock
    }

    /// Frees the lock; nobody may use it afterwards.
    func destroy() {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        storage.deinitialize(count: 1)
        storage.deallocate()
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
    func wait() {
        storage.pointee.waiting += 1
        pthread_cond_wait(condition, mutex)
        storage.pointee.waiting -= 1
    }

    /// Wakes every thread in `wait()`; the mutex must be held (every caller holds it: a waiter
    /// counts itself with it held, before it waits).
    func broadcast() {
        if storage.pointee.waiting > 0 { pthread_cond_broadcast(condition) }
    }
}
