#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Budgets synchronous nesting in bytes of stack, not in levels: a level of resolution takes
/// ~2 KB in release builds, ~8 KB in debug builds and ~11 KB under the thread sanitizer, and a
/// secondary thread on Apple platforms has 512 KiB. When less than `reserve` bytes remain, the
/// next level continues on a fresh thread (`FreshStack`).
enum StackBudget {
    /// Bytes kept free below the point where a level moves to a fresh thread: room for one level
    /// in any build plus the user's own closure.
    static let reserve: UInt = 160 << 10

    /// The current thread's stack end plus `reserve`; 0 (never low) when the bounds are unknown.
    static func limitOfCurrentThread() -> UInt {
        #if canImport(Darwin)
        let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
        let size = UInt(pthread_get_stacksize_np(pthread_self()))
        let bottom = top - size
        #else
        // glibc's `pthread_getattr_np` is a GNU extension the Glibc module does not export.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return 0 }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        let bottom = UInt(bitPattern: address)
        #endif
        return bottom + reserve
    }
}
