#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a deep resolution on a new thread with a fresh stack, so that no chain of definitions,
/// however long, can overflow the stack of the thread that asked (secondary threads on Apple
/// platforms have 512 KiB).
///
/// The asking thread blocks until the new one is done, and the new thread adopts the asker's
/// `CreationStack`: the resolution path, cycle detection and "who is making this singleton" all
/// stay the same, exactly as if the call had not moved.
enum FreshStack {
    /// Frames a thread may nest before the next level moves to a fresh thread.
    static let framesPerThread = 48
    /// Stack size of the fresh threads: far more than `framesPerThread` levels need.
    static let stackSize = 4 << 20

    private final class Job: @unchecked Sendable {
        // Safe: written by the new thread before it exits and read by the asker after
        // `pthread_join`, which orders the two.
        let stack: CreationStack
        let body: () -> Void
        init(stack: CreationStack, body: @escaping () -> Void) {
            self.stack = stack
            self.body = body
        }
    }

    /// `body`'s result, computed on a fresh thread that continues `stack`.
    static func run<R>(continuing stack: CreationStack, _ body: () throws(ContextError) -> R) throws(ContextError) -> R {
        var result: Result<R, ContextError>?
        withoutActuallyEscaping(body) { body in
            let job = Job(stack: stack) {
                do throws(ContextError) { result = .success(try body()) } catch { result = .failure(error) }
            }
            if !spawnAndJoin(job) {
                // No thread could be made: go on here rather than fail.
                do throws(ContextError) { result = .success(try body()) } catch { result = .failure(error) }
            }
        }
        return try result!.get()
    }

    private static func spawnAndJoin(_ job: Job) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(job).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, { raw in
            #if canImport(Darwin)
            let job = Unmanaged<Job>.fromOpaque(raw).takeRetainedValue()
            #else
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            #endif
            ThreadLocal.adopt(job.stack)
            job.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return false
        }
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        return true
    }
}
