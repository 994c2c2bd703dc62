#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the library asks about the calling thread: where its stack ends and how deep the caller
/// is on it (`StackBudget`, `ThreadState.isStackLow`), and whether it is running a task.
enum CurrentThread {
    /// The lowest address of the calling thread's stack; `nil` when the system does not say.
    static func stackBottom() -> UInt? {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        return top - size
        #else
        // glibc's `pthread_getattr_np` is a GNU extension the Glibc module does not export: it
        // is looked up by name, and called with the signature glibc declares.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return UInt(bitPattern: address)
        #endif
    }

    /// An address in the caller's own frame (inlined into it): how far down its stack the
    /// caller is. Only compared with addresses, never used to reach memory.
    @inline(__always)
    static var stackPosition: UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// Whether the calling code runs in a task. The current task is only compared with `nil`,
    /// never kept beyond the call.
    static var isInTask: Bool { withUnsafeCurrentTask { $0 != nil } }
}
