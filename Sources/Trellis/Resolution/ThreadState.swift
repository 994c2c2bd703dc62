import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the library keeps per thread: the resolution a top-level synchronous call reuses, the
/// resolution running synchronous frames on this thread right now (so a call made from inside a
/// definition's closure is recognised as nested), and where the thread's stack ends.
///
/// Nothing that belongs to one resolution lives here: paths, collectors and ownership are on the
/// `Resolution`, which a `Resolver` carries and an `await` keeps. The thread only says which
/// resolution, if any, it is executing synchronously at this moment.
final class ThreadState {
    /// The resolution top-level synchronous calls on this thread use when nothing runs here yet:
    /// reused, so a lookup that must make something allocates no resolution.
    let home: Resolution
    /// The innermost resolution executing synchronous frames on this thread, if any.
    /// Unretained: whoever runs a resolution on the thread keeps it alive while it is active, and
    /// saving and restoring it around every call then costs no retain or release.
    var active: Unmanaged<Resolution>?
    /// `@Inject` wrappers initialised on this thread since the innermost synchronous frame began
    /// (the check for stripped reflection metadata; see `InjectionPlan`).
    var injectInits = 0
    /// The lowest stack address a synchronous frame may start below without risking an
    /// overflow: the stack's end plus `StackBudget.reserve`.
    let stackLimit: UInt
    /// Nested resolutions kept for reuse.
    var spares: [Resolution] = []
    /// The process-wide default context as this thread last read it, and the
    /// `CurrentContext.generation` it was read at: `@Inject` initialisers reuse it without the
    /// default's lock while no `setDefault` happened since. Weak: a thread's cache must not keep
    /// a context alive after `setDefault(nil)`.
    weak var cachedDefault: ApplicationContext?
    var cachedDefaultGeneration = 0

    private init() {
        home = Resolution(home: ())
        stackLimit = StackBudget.limitOfCurrentThread()
        home.boundThread = .passUnretained(self)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(raw).release()
            #else
            if let raw { Unmanaged<ThreadState>.fromOpaque(raw).release() }
            #endif
        }
        precondition(status == 0, "Trellis could not create its thread-local key (pthread_key_create returned \(status)): the process has run out of thread-local keys. Free some, or create the first ApplicationContext earlier.")
        return key
    }()

    /// Counts an `@Inject` wrapper made on the calling thread, without retaining its state, and
    /// returns the current context if one may be set.
    @inline(__always)
    static func countInjectWrapper() -> ApplicationContext? {
        currentUnretained.withGuaranteedReference { thread in
            thread.injectInits &+= 1
            return CurrentContext.mayBeSet ? thread.currentContext() : nil
        }
    }

    /// `ApplicationContext.current`, with the default read from this thread's cache.
    private func currentContext() -> ApplicationContext? {
        if CurrentContext.bindings.load(ordering: .relaxed) != 0, let bound = CurrentContext.$bound.get() { return bound }
        let generation = CurrentContext.generation.load(ordering: .acquiring)
        if generation != cachedDefaultGeneration {
            cachedDefault = CurrentContext.defaultContext.withLock { $0 }
            cachedDefaultGeneration = generation
        }
        return cachedDefault
    }

    /// The calling thread's state, made on first use and released when the thread exits.
    @inline(__always)
    static var current: ThreadState {
        currentUnretained.takeUnretainedValue()
    }

    /// The calling thread's state, unretained (see `current`).
    @inline(__always)
    static var currentUnretained: Unmanaged<ThreadState> {
        if let raw = pthread_getspecific(key) { return Unmanaged.fromOpaque(raw) }
        return Unmanaged.passUnretained(makeCurrent())
    }

    @inline(never)
    private static func makeCurrent() -> ThreadState {
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// Whether the next synchronous level must move to a fresh stack.
    @inline(__always)
    var isStackLow: Bool {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) } < stackLimit
    }

    /// A nested resolution, reused if one is spare.
    func nestedResolution(in outer: Resolution, at depth: Int) -> Resolution {
        if let spare = spares.popLast() {
            spare.reuse(nestedIn: outer, attachDepth: depth)
            return spare
        }
        return Resolution(nestedIn: outer, attachDepth: depth, isAsync: false)
    }

    /// Takes a nested resolution back once its call returned.
    func recycle(_ resolution: Resolution) {
        resolution.release()
        if spares.count < 4 { spares.append(resolution) }
    }
}

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
