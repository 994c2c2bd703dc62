/// What one thread is making right now: the resolution path, innermost last.
///
/// Every creation (closure call and injection) runs synchronously on the thread that asked, so
/// the objects being made on a thread form a stack and a per-thread stack is exactly the
/// resolution path: cycle detection and error paths read it, and no lookup allocates one.
///
/// The thread's own state lives behind a pointer rather than in stored `var`s, so the prototype
/// path pays no dynamic exclusivity checks for it.
final class CreationStack: @unchecked Sendable {
    // Safe: `state` is touched only by the thread that owns the stack (it is thread-local; a
    // `FreshStack` thread adopts it only while its owner is blocked joining that thread). Other
    // threads read `waitingFor` and compare stack identities for deadlock detection, only while
    // holding `Coordinator.lock`, which guards `waitingFor`.
    struct Frame {
        /// Unretained: the context is kept alive by the lookup that pushed the frame.
        let context: Unmanaged<ApplicationContext>
        let definition: Int
        /// `injectInits` of the frame below, restored on pop.
        let savedInjectInits: Int

        var key: String { context.takeUnretainedValue().table.keys[definition] }
    }

    struct State {
        /// The frames, innermost last, in a buffer of their own: `Frame` is a trivial type, so
        /// pushing, popping and searching involve no reference counting.
        var frames: UnsafeMutablePointer<Frame>
        var depth = 0
        var capacity: Int
        /// `@Inject` wrappers initialised since the innermost frame was pushed (reflection check).
        var injectInits = 0
        /// The depth at which the next lookup moves to a fresh thread (see `FreshStack`).
        var nextFreshStack = FreshStack.framesPerThread
        /// Collects what an eager singleton pulls in while the context starts.
        var startup: StartupCollector?
        /// `startup != nil`, readable without retaining the collector.
        var isStarting = false
        /// Set while `validate()` runs on this thread: problems are collected, not thrown.
        var problems: ProblemCollector?
        /// Singletons on this stack whose properties are being injected right now.
        var injectingSingletons = 0
        /// Singletons made while another was being injected, published when the outermost is done.
        var unpublished: [(context: ApplicationContext, index: Int, box: AnyBox)] = []
    }

    let state: UnsafeMutablePointer<State>
    /// The slot this thread is blocked on, if any; guarded by `Coordinator.lock`.
    var waitingFor: Slot?

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State(frames: .allocate(capacity: 32), capacity: 32))
    }

    deinit {
        state.pointee.frames.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The frames, outermost first.
    var frames: [Frame] { Array(UnsafeBufferPointer(start: state.pointee.frames, count: state.pointee.depth)) }
    var depth: Int { state.pointee.depth }

    var startup: StartupCollector? {
        get { state.pointee.startup }
        set {
            state.pointee.startup = newValue
            state.pointee.isStarting = newValue != nil
        }
    }

    var problems: ProblemCollector? {
        get { state.pointee.problems }
        set { state.pointee.problems = newValue }
    }

    var injectInits: Int { state.pointee.injectInits }

    @inline(__always)
    func push(_ context: ApplicationContext, _ definition: Int) {
        if state.pointee.depth == state.pointee.capacity { grow() }
        (state.pointee.frames + state.pointee.depth).initialize(to: Frame(context: .passUnretained(context), definition: definition, savedInjectInits: state.pointee.injectInits))
        state.pointee.depth += 1
        state.pointee.injectInits = 0
    }

    @inline(never)
    private func grow() {
        let capacity = state.pointee.capacity * 2
        let frames = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        frames.moveInitialize(from: state.pointee.frames, count: state.pointee.depth)
        state.pointee.frames.deallocate()
        state.pointee.frames = frames
        state.pointee.capacity = capacity
    }

    @inline(__always)
    func pop() {
        state.pointee.depth -= 1
        state.pointee.injectInits = state.pointee.frames[state.pointee.depth].savedInjectInits
    }

    /// Whether `definition` of `context` is being made on this thread.
    @inline(__always)
    func contains(_ context: ApplicationContext, _ definition: Int) -> Bool {
        let target = Unmanaged.passUnretained(context).toOpaque()
        let frames = state.pointee.frames
        for position in 0..<state.pointee.depth where frames[position].definition == definition && frames[position].context.toOpaque() == target {
            return true
        }
        return false
    }

    /// The keys on the path, outermost first.
    var path: [String] { frames.map(\.key) }
}
