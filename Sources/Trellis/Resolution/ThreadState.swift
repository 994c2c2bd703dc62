import Synchronization
internal import CTrellisThread
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
    var active: Unretained<Resolution>?
    /// `@Inject` wrappers initialised on this thread since the innermost synchronous frame began
    /// (the check for stripped reflection metadata; see `InjectionPlan`).
    var injectInits = 0
    /// The lowest stack address a synchronous frame may start below without risking an
    /// overflow: the stack's end plus `StackBudget.reserve`.
    let stackLimit: UInt
    /// Nested resolutions kept for reuse.
    var spares: [Resolution] = []
    /// The contexts this thread is closing with synchronous disposals (`ClosingScope`).
    // Without the runtime's exclusivity check (about 150 instructions a close): only the thread
    // this state belongs to reads or writes it, one access at a time.
    @exclusivity(unchecked) var closing: [UInt64] = []
    /// The parents of contexts freed on this thread, released one after the other.
    let parentRelease = ParentRelease()
    /// The reference of the process-wide default context as this thread last read it, and the
    /// `CurrentContext.generation` it was read at: `@Inject` initialisers reuse it without the
    /// default's lock while no `setDefault` happened since. The reference, not the context: a
    /// thread's cache must not keep a context alive after `setDefault(nil)`.
    var cachedDefault: ContextReference?
    var cachedDefaultGeneration = 0
    /// Counts the synchronous frames begun on this thread (`runningSynchronously`) and the
    /// synchronous `withCurrent` scopes entered and left here: while it is unchanged and a frame
    /// runs, this thread executes that frame's task without suspending, so the task's binding
    /// cannot have changed.
    var frames: UInt = 0
    /// The binding's reference (`nil`: no binding) as `@Inject` initialisers read it at
    /// `cachedBindingFrame`, reused by the others of that frame: the objects a lookup makes
    /// read the task-local once, not once per property.
    var cachedBinding: ContextReference?
    var cachedBindingFrame: UInt = .max
    // Last: read only on a contended wait and by a deep lookup's thread. Placed before the
    // fields the hot paths read, they moved those by a word, and `graph` timed 7 % slower with
    // the same instructions (Docs/Performance.md, stop 40).
    /// This thread runs a deep lookup for a task (`FreshStack`), which blocks until it is done:
    /// its waits are the task's, and must follow the rules of a synchronous caller in a task.
    var standsInForTask = false
    /// This thread runs a deep lookup for the main actor, which blocks until it is done: a wait
    /// here holds the main actor.
    var standsInForMainActor = false

    private init() {
        home = Resolution(home: ())
        stackLimit = StackBudget.limitOfCurrentThread()
        home.boundThread = Unretained(self)
    }

    /// Owns each thread's state, and releases it when the thread exits: the thread-local
    /// variable the state is read from (`CTrellisThread`) cannot. Cleared first, on the exiting
    /// thread, so nothing that runs later on it (another key's destructor calling in) reads a
    /// freed state: it makes a new one.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            trellis_set_current_thread_state(nil)
            #if canImport(Darwin)
            Unretained<ThreadState>(opaque: raw).release()
            #else
            if let raw { Unretained<ThreadState>(opaque: raw).release() }
            #endif
        }
        precondition(status == 0, "Trellis could not create its thread-local key (pthread_key_create returned \(status)): the process has run out of thread-local keys. Free some, or create the first ApplicationContext earlier.")
        return key
    }()

    /// Counts an `@Inject` wrapper made on the calling thread, without retaining its state, and
    /// returns the reference of the current context if one may be set. A wrapper that will
    /// resolve from the current context is not counted: it needs no injection, so it tells
    /// nothing about the object being made (`reflectionUnavailable`).
    @inline(__always)
    static func countInjectWrapper() -> ContextReference? {
        currentUnretained.with { thread in
            let current = CurrentContext.mayBeSet ? thread.currentReference() : nil
            if current == nil { thread.injectInits &+= 1 }
            return current
        }
    }

    /// `count` wrappers counted on the calling thread were injected (`inject(into:)` filled an
    /// object a closure made itself): they no longer count as wrappers nothing injects.
    static func uncountInjectWrappers(_ count: Int) {
        currentUnretained.with { thread in thread.injectInits = max(0, thread.injectInits &- count) }
    }

    /// The reference of `ApplicationContext.current`, the default's read from this thread's cache.
    private func currentReference() -> ContextReference? {
        if CurrentContext.bindings.load(ordering: .relaxed) != 0, let bound = boundReference() { return bound }
        let generation = CurrentContext.generation.load(ordering: .acquiring)
        if generation != cachedDefaultGeneration {
            cachedDefault = CurrentContext.defaultContext.withLock { $0?.reference }
            cachedDefaultGeneration = generation
        }
        return cachedDefault
    }

    /// The reference of the task's `withCurrent` binding, if any: read from the task-local once
    /// per synchronous frame (`frames`), which a frame's wrappers then share.
    private func boundReference() -> ContextReference? {
        if active != nil && cachedBindingFrame == frames { return cachedBinding }
        let bound = CurrentContext.$bound.get()?.reference
        if active != nil {
            cachedBinding = bound
            cachedBindingFrame = frames
        }
        return bound
    }

    /// The calling thread's state, made on first use and released when the thread exits.
    @inline(__always)
    static var current: ThreadState {
        currentUnretained.object
    }

    /// The calling thread's state, unretained (see `current`).
    @inline(__always)
    static var currentUnretained: Unretained<ThreadState> {
        if let raw = trellis_current_thread_state() { return Unretained(opaque: raw) }
        return Unretained(makeCurrent())
    }

    @inline(never)
    private static func makeCurrent() -> ThreadState {
        let state = ThreadState()
        let owned = Unretained.retained(state).opaque
        pthread_setspecific(key, owned)
        trellis_set_current_thread_state(owned)
        return state
    }

    /// Whether the next synchronous level must move to a fresh stack.
    @inline(__always)
    var isStackLow: Bool {
        CurrentThread.stackPosition < stackLimit
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
