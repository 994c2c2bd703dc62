#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTestSupport

/// Runs a test body on a thread whose stack size the test chooses, as an app's secondary thread
/// (512 KiB on Apple platforms) would.
enum ConcurrencyStackThread {
    /// Apple platforms' default for secondary threads.
    static let secondaryStackSize = 512 << 10

    private final class Job: @unchecked Sendable {
        // Safe: `body` is set once in `init` and only called by the one thread it is handed to.
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread of `stackSize` bytes and waits for it; `false` if
    /// no thread could be made or `body` did not return before the hang guard ran out (a
    /// deadlock). A crash on that thread (a stack overflow) ends the process: run such tests as
    /// exit tests.
    static func run(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = ConcurrencyLatch(count: 1)
        let job = Job {
            body()
            done.countDown()
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0,
              pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) == 0 else { return false }
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
        return done.wait()
    }
}
