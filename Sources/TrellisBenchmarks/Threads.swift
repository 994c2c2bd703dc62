#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's work, handed to `pthread_create` as a retained opaque pointer.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// The start routine of every benchmark thread: takes back the retained `ThreadBody` and runs it.
#if canImport(Glibc)
private let threadStart: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
    Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
    return nil
}
#else
private let threadStart: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { raw in
    Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().run()
    return nil
}
#endif

/// Runs `body(threadIndex)` on `threads` new threads at once and returns the wall nanoseconds
/// from before the first thread starts until the last one ends (as /work/shared/bench does).
///
/// Plain POSIX threads, so the target needs no Foundation (the shared bench's `Thread` and
/// `DispatchGroup` are pthreads underneath too).
func wallNs(threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> Double {
    let start = ContinuousClock.now
    var handles: [pthread_t] = []
    for t in 0..<threads {
        let context = Unmanaged.passRetained(ThreadBody { body(t) }).toOpaque()
        #if canImport(Glibc)
        var handle = pthread_t()
        #else
        var handle: pthread_t?
        #endif
        let status = pthread_create(&handle, nil, threadStart, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        #if canImport(Glibc)
        handles.append(handle)
        #else
        handles.append(handle!)
        #endif
    }
    for handle in handles { pthread_join(handle, nil) }
    return nanoseconds(since: start)
}
