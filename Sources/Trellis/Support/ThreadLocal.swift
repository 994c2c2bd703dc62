#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One object per thread, made on first use and released when the thread exits.
///
/// Creation is synchronous (a definition's closure never suspends), so the objects being made on
/// one thread form a stack, and a per-thread object is exactly the state of one resolution.
enum ThreadLocal {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
            Unmanaged<CreationStack>.fromOpaque(raw).release()
            #else
            if let raw { Unmanaged<CreationStack>.fromOpaque(raw).release() }
            #endif
        }
        precondition(status == 0, "Trellis could not create its thread-local key (pthread_key_create returned \(status)); the process has run out of thread-local keys.")
        return key
    }()

    /// The creation stack of the calling thread.
    @inline(__always)
    static var creationStack: CreationStack {
        if let raw = pthread_getspecific(key) {
            return Unmanaged<CreationStack>.fromOpaque(raw).takeUnretainedValue()
        }
        return makeCreationStack()
    }

    /// Makes `stack` the calling thread's creation stack (a fresh thread continuing a deep
    /// resolution); released when the thread exits.
    static func adopt(_ stack: CreationStack) {
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
    }

    @inline(never)
    private static func makeCreationStack() -> CreationStack {
        let stack = CreationStack()
        pthread_setspecific(key, Unmanaged.passRetained(stack).toOpaque())
        return stack
    }
}
