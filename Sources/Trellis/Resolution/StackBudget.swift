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
        guard let bottom = CurrentThread.stackBottom() else { return 0 }
        return bottom + reserve
    }
}
