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
/// The asking thread blocks until the new one is done, and the new thread continues the asker's
/// `Resolution`: the path, cycle detection and "who is making this singleton" all stay the same,
/// exactly as if the call had not moved. Called when `StackBudget` says the asker's stack is
/// nearly used up, which is measured in bytes, so it holds in release, debug and sanitizer builds.
enum FreshStack {
    /// Stack size of the fresh threads: many levels of any build, plus the reserve.
    static let stackSize = 4 << 20

    private final class Job: @unchecked Sendable {
        // Safe: `body` runs on the new thread while the asker is blocked in `pthread_join`, which
        // orders everything the new thread wrote before the asker reads it.
        let body: () -> Void
        init(body: @escaping () -> Void) { self.body = body }
    }

    /// `body`'s result, computed on a fresh thread that continues `resolution`.
    static func run<R>(continuing resolution: Resolution, _ body: (Resolution, ThreadState) throws(ContextError) -> R) throws(ContextError) -> R {
        var result: Result<R, ContextError>?
        withoutActuallyEscaping(body) { body in
            let job = Job {
                let thread = ThreadState.current
                do throws(ContextError) {
                    result = .success(try thread.runningSynchronously(resolution) { () throws(ContextError) -> R in try body(resolution, thread) })
                } catch {
                    result = .failure(error)
                }
            }
            if !spawnAndJoin(job) {
                // No thread could be made: go on here rather than fail.
                let thread = ThreadState.current
                do throws(ContextError) { result = .success(try body(resolution, thread)) } catch { result = .failure(error) }
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
