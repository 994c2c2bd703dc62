#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value the tests share between threads, guarded by a `pthread_mutex_t`.
///
/// The tests' stand-in for `Synchronization.Mutex`, which they must not use: CI runs the whole
/// suite under the thread sanitizer, and on Linux the sanitizer cannot see `Mutex` (it waits on a
/// futex directly), so two threads taking turns under one are reported as a race and fail the
/// run. The sanitizer sees the happens-before edges of pthread calls on every platform.
/// `.ci/check-test-sync` keeps `Mutex` out of the tests.
public final class Guarded<Value>: @unchecked Sendable {
    // Safe: `stored` is only read or written between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` of `mutex`, which lives on the heap so it never moves.
    private var stored: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A guard over `value`.
    public init(_ value: Value) {
        stored = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the mutex held; `body` must not take this guard again.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&stored)
    }

    /// A copy of the value, read with the mutex held.
    public var value: Value { withLock { $0 } }
}
