#if canImport(Glibc)
import Glibc
import Synchronization

/// Counts Swift heap allocations without C code, by chaining the Swift runtime's allocation hook.
///
/// How: `swift_allocObject` (which every class instance, array/dictionary/string buffer and
/// existential or closure box goes through) calls the function stored in the runtime's exported
/// variable `_swift_allocObject` when it differs from the built-in one (the hook exists for
/// Instruments). `install()` finds that variable with `dlsym`, keeps the original function, and
/// puts `counting` in its place, which bumps an atomic and calls the original. `uninstall()`
/// puts the original back.
///
/// A runtime quirk this works around (Swift 6.3.1, Linux x86_64): the first call through an
/// overridden hook sets the runtime's sticky flag
/// `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly`, which sends
/// every later `swift_retain` through an adapter that masks the pointer without the runtime's
/// usual "not a heap pointer" check, so retaining a small string crashes. `counting` clears the
/// flag again before it returns; it is set only while one allocation is in flight, and nothing
/// in that window retains.
///
/// Limits: it does not see raw `malloc` calls that bypass `swift_allocObject`
/// (`UnsafeMutablePointer.allocate`, C libraries). Why not glibc: `mallinfo2` has no cumulative
/// allocation count (only bytes in use, blind to an allocation freed in the same operation) and
/// is not imported by the `Glibc` module (no `malloc.h`), `__malloc_hook` is gone since glibc
/// 2.34, and interposing `malloc` needs C.
///
/// Install only while no other thread of the benchmark runs: the runtime reads the hook variable
/// and the flag without synchronisation, and another thread retaining while the flag is set for
/// an instant would take the adapter's path.
enum AllocationCounter {
    typealias AllocateObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    /// Objects allocated since `install()`.
    static let count = Atomic<Int>(0)
    /// The address of the runtime's own allocation function, while the hook is installed.
    private static let original = Atomic<Int>(0)
    /// The address of the runtime's swizzling flag (a `bool`).
    private static let swizzlingFlag = Atomic<Int>(0)

    private static let counting: AllocateObject = { metadata, size, alignMask in
        AllocationCounter.count.add(1, ordering: .relaxed)
        let original = unsafeBitCast(AllocationCounter.original.load(ordering: .relaxed), to: AllocateObject.self)
        let object = original(metadata, size, alignMask)
        UnsafeMutablePointer<UInt8>(bitPattern: AllocationCounter.swizzlingFlag.load(ordering: .relaxed))?.pointee = 0
        return object
    }

    /// An exported symbol of any loaded image (`nil` is `RTLD_DEFAULT`).
    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(nil, name)
    }

    /// Chains the counter into the runtime. `false` when this runtime lacks the hook or the flag.
    static func install() -> Bool {
        guard let hook = symbol("_swift_allocObject"),
              let flag = symbol("_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly"),
              let current = hook.load(as: UnsafeMutableRawPointer?.self)
        else { return false }
        original.store(Int(bitPattern: current), ordering: .relaxed)
        swizzlingFlag.store(Int(bitPattern: flag), ordering: .relaxed)
        count.store(0, ordering: .relaxed)
        hook.storeBytes(of: unsafeBitCast(counting, to: UnsafeMutableRawPointer.self), as: UnsafeMutableRawPointer.self)
        return true
    }

    /// Puts the runtime's own allocation function back.
    static func uninstall() {
        guard let hook = symbol("_swift_allocObject"),
              let original = UnsafeMutableRawPointer(bitPattern: original.load(ordering: .relaxed))
        else { return }
        hook.storeBytes(of: original, as: UnsafeMutableRawPointer.self)
    }

    /// Swift heap allocations per operation of `body(ops)`, after a warm-up.
    static func perOp(ops: Int, _ body: (Int) -> Void) -> Double {
        body(min(ops, 1000))
        let before = count.load(ordering: .relaxed)
        body(ops)
        return Double(count.load(ordering: .relaxed) - before) / Double(ops)
    }
}
#endif
