#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own, outside every pool: for work that may block for long (a deep resolution
/// that needs a fresh stack, a synchronous `dispose()` that `close(timeout:)` may leave running).
/// A thread of the cooperative pool blocked by such work is one fewer for every task of the
/// process, and the pool has as many threads as cores.
enum NewThread {
    private final class Job: @unchecked Sendable {
        // Safe: `body` is written once, before the thread starts, and run once, by that thread.
        let body: () -> Void
        init(body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it to end.
    /// `false` if no thread could be made (`body` did not run).
    static func runAndWait(stackSize: Int, _ body: @escaping () -> Void) -> Bool {
        guard let thread = start(stackSize: stackSize, Job(body: body)) else { return false }
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
        return true
    }

    /// Runs `body` on a new thread nobody waits for. `false` if no thread could be made (`body`
    /// did not run).
    static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(stackSize: nil, Job(body: body)) else { return false }
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
        return true
    }

    #if canImport(Darwin)
    private typealias Handle = pthread_t?
    #else
    private typealias Handle = pthread_t
    #endif

    private static func start(stackSize: Int?, _ job: Job) -> Handle? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        // The job is retained for the thread, which takes it over.
        let context = Unretained.retained(job)
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, &attributes, { raw in
            #if canImport(Darwin)
            Unretained<Job>(opaque: raw).takeRetained().body()
            #else
            Unretained<Job>(opaque: raw!).takeRetained().body()
            #endif
            return nil
        }, context.opaque)
        guard status == 0 else {
            context.release()
            return nil
        }
        return thread
    }
}
