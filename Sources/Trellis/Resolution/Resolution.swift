import Synchronization

/// The state of one line of resolution work: the definitions being made, innermost last, and
/// everything that belongs to the lookup that started them.
///
/// A `Resolver` carries its resolution, so the state follows the work across `await`s and thread
/// hops instead of living on a thread. One resolution is executed by one thread or task at a
/// time; work that runs concurrently for it (a resolver used from `async let`, a task group or
/// another thread) gets a *continuation*: a child resolution whose path continues the parent's
/// at the point it was spawned. A call made on a context from inside a definition's closure (or
/// `didInject`, a `deinit`, …) without the resolver is a new lookup: a *nested* resolution with
/// its own path and collectors, linked to the outer one only so that waiting for something the
/// outer one is making is seen as the cycle it is.
@usableFromInline
final class Resolution: @unchecked Sendable {
    // Safe: `frames`, `depth`, `session` and `boundThread` are used only by the thread or task
    // executing the resolution (a resolver checks `boundThread` before extending it, and gives
    // any other caller a continuation instead); `waitingFor`, `children` and `group` are read and
    // written only while holding `Coordinator.lock`.
    struct Frame {
        /// Unretained: the lookup that pushed the frame keeps the context alive.
        let context: Unretained<ApplicationContext>
        let definition: Int
        /// `ThreadState.injectInits` of the level below, restored when the frame is popped.
        let savedInjectInits: Int

        var key: String { context.with { $0.key(at: definition) } }

        func isDefinition(_ index: Int, of context: ApplicationContext) -> Bool {
            definition == index && self.context.refers(to: context)
        }
    }

    private(set) var frames: HeapBuffer<Frame>
    private(set) var depth = 0
    /// The resolution this one continues (`isNested == false`) or was started inside of.
    private(set) var parent: Resolution?
    /// How many of `parent`'s frames were pushed when this one was spawned: they are this one's
    /// ancestors, and `parent`'s frames from there on do not wait for this one.
    private(set) var attachDepth = 0
    /// A new lookup started from user code, rather than more of the parent's work.
    private(set) var isNested = false
    /// Started by a call from user code (a top-level lookup, or a lookup nested in a closure,
    /// `didInject` or `deinit`), rather than continuing a closure's work on another thread.
    var isCalledFromUserCode: Bool { parent == nil || isNested }

    /// The session of the lookup this one was started inside of (a read of a `.lazy` property
    /// in a closure is a nested lookup of its own), else this one's.
    var enclosingSession: Session? { isNested ? parent?.session : session }
    /// Collectors and rules shared by the whole lookup.
    var session: Session {
        didSet {
            collectsStartup = session.startup != nil
            restrictsAsync = session.restrictsAsync
            // A validation's problem is its own: a reused resolution keeps none for the next.
            collectedProblem = nil
        }
    }
    /// `session.startup != nil`, read by every make without touching the session object.
    private(set) var collectsStartup = false
    /// `session.restrictsAsync`, read by every object's injection (`ObjectInjection`, which
    /// drops its route in the concurrent phase) without touching the session object.
    private(set) var restrictsAsync = false
    /// Started by an async entry point: what it makes may suspend.
    private(set) var isAsync: Bool
    /// The thread executing this resolution synchronously right now, if any. Unretained: a
    /// thread's state lives as long as the thread, and the thread unbinds before it moves on.
    var boundThread: Unretained<ThreadState>?

    /// Whether `thread` is executing this resolution synchronously right now.
    @inline(__always)
    func isBound(to thread: ThreadState) -> Bool {
        boundThread?.refers(to: thread) == true
    }

    // Guarded by `Coordinator.lock`, which already serialises every access: the runtime's
    // dynamic exclusivity check would cost more than the access on every singleton made.
    /// What this resolution is blocked on.
    @exclusivity(unchecked) var waitingFor: WaitTarget?
    /// Continuations and nested resolutions running on this one's behalf.
    @exclusivity(unchecked) var children: [Resolution] = []
    /// Where the singletons it makes wait to be published (see `PublicationGroup`).
    @exclusivity(unchecked) var group: PublicationGroup
    /// When another lookup's failed injection last dropped objects this resolution may hold (it
    /// received an early reference after that injection began); 0: never. A singleton this
    /// resolution began making before then is dropped and made again rather than published
    /// (`SingletonSlot.isTainted`).
    @exclusivity(unchecked) var droppedUnder: UInt64 = 0
    /// The last problem a validation collected in this resolution instead of throwing it
    /// (`ObjectInjection`): an object whose property it left unfilled fails with it once its
    /// other properties are filled, so it is never handed on half-injected. Only set while
    /// validating; used by the executing thread or task only.
    var collectedProblem: ContextError?
    /// The synchronous singleton a synchronous step of this async lookup was refused a wait
    /// for (`SingletonSlot.refusedWait`), until the lookup's async driver takes it
    /// (`awaitRefusedWait`). Written with `Coordinator.lock` held by the executing thread, read
    /// by the same lookup's driver after the refusal reached it.
    var refusedWait: RefusedWait?
    /// The last refused wait `awaitRefusedWait` took would have closed a cycle, and the step was
    /// made again at once: a second one in a row is not retried. Used by the executing task.
    var retriedOnACycle = false
    /// How many frames this async resolution had pushed when it last suspended (or was about
    /// to) while making something, lowered as they are popped; -1: never. A synchronous caller
    /// inside a task must not block for a making that has suspended (its frame was among them),
    /// and may for one begun after (`hasSuspendedWithin`): one suspension of a request's handler
    /// (an async property) does not make every later singleton it makes off limits.
    /// Written by the executing thread (raised with `Coordinator.lock` held, lowered at a pop
    /// without it), read by waiters under the lock: a stale read is a higher value, which only
    /// refuses a wait that could have been made.
    private let suspendedDepth = Atomic<Int>(-1)

    /// A thread's reusable home resolution.
    init(home: Void) {
        frames = HeapBuffer(count: 32)
        session = .plain
        isAsync = false
        group = PublicationGroup()
    }

    /// A new top-level resolution (an async lookup, a start, a validation).
    init(session: Session, isAsync: Bool) {
        frames = HeapBuffer(count: 16)
        self.session = session
        self.isAsync = isAsync
        group = PublicationGroup()
        collectsStartup = session.startup != nil
        restrictsAsync = session.restrictsAsync
    }

    /// A resolution started by a call made from user code while `outer` runs it.
    init(nestedIn outer: Resolution, attachDepth: Int, isAsync: Bool) {
        frames = HeapBuffer(count: 16)
        session = .plain
        self.isAsync = isAsync
        group = PublicationGroup()
        adopt(parent: outer, attachDepth: attachDepth, isNested: true)
    }

    /// More of `parent`'s work, run concurrently with it (or on another thread).
    init(continuing parent: Resolution, attachDepth: Int, isAsync: Bool) {
        frames = HeapBuffer(count: 16)
        session = parent.session
        self.isAsync = isAsync
        group = PublicationGroup()
        collectsStartup = session.startup != nil
        restrictsAsync = session.restrictsAsync
        adopt(parent: parent, attachDepth: attachDepth, isNested: false)
    }

    deinit {
        frames.deinitialize(count: depth)
        frames.deallocate()
    }

    /// Links to `parent` in the wait-for graph and shares its publication group: what this one
    /// makes may hold an unfinished object the parent handed it.
    private func adopt(parent: Resolution, attachDepth: Int, isNested: Bool) {
        self.parent = parent
        self.attachDepth = attachDepth
        self.isNested = isNested
        Coordinator.lock.withLock {
            group = parent.group.root
            parent.children.append(self)
        }
    }

    /// Notes that this async resolution is about to suspend inside a making: synchronous callers
    /// blocked on what it makes are woken to decide again (see `CreationPhase.mayAwait`).
    func willSuspend() {
        guard isAsync, suspendedDepth.load(ordering: .relaxed) < depth else { return }
        Coordinator.lock.withLock { markSuspended() }
    }

    /// Whether this resolution has suspended while its frame at `depth` (counting from 1; 0:
    /// whatever it runs) was pushed, or a continuation or nested lookup running for its frames
    /// from `depth` on has suspended at all. Called with `Coordinator.lock` held.
    func hasSuspendedWithin(from depth: Int) -> Bool {
        if suspendedDepth.load(ordering: .relaxed) >= max(depth, 0) { return true }
        return children.contains { $0.attachDepth >= depth && $0.hasSuspendedWithin(from: 0) }
    }

    /// The main-actor definition this resolution waits to make on the main actor, while it
    /// waits for the hop. Guarded by `Coordinator.lock`.
    @exclusivity(unchecked) private(set) var mainActorHop: (context: Unretained<ApplicationContext>, index: Int)?

    /// Set while this resolution waits to run a main-actor closure on the main actor.
    var awaitsMainActor: Bool { mainActorHop != nil }

    /// Notes that this resolution waits to hop onto the main actor to make definition `index`
    /// of `context` (`nil`: the hop is over), and wakes the blocked callers to decide again.
    func setAwaitsMainActor(for hop: (context: ApplicationContext, index: Int)?) {
        Coordinator.lock.withLock {
            mainActorHop = hop.map { (Unretained($0.context), $0.index) }
            Coordinator.lock.broadcast()
        }
    }

    /// `willSuspend` for a caller that holds the lock: notes the frames pushed now, and wakes the
    /// synchronous callers blocked on what they make, to decide again.
    func markSuspended() {
        guard isAsync, suspendedDepth.load(ordering: .relaxed) < depth else { return }
        suspendedDepth.store(depth, ordering: .relaxed)
        Coordinator.lock.broadcast()
    }

    /// Makes a spare nested resolution ready for another call inside `outer`.
    func reuse(nestedIn outer: Resolution, attachDepth: Int) {
        session = .plain
        adopt(parent: outer, attachDepth: attachDepth, isNested: true)
    }

    /// Unlinks a finished continuation or nested resolution from its parent.
    func release() {
        guard let parent else { return }
        Coordinator.lock.withLock {
            if let position = parent.children.lastIndex(where: { $0 === self }) { parent.children.remove(at: position) }
            group = PublicationGroup()
        }
        self.parent = nil
    }

    /// Starts a new top-level call on a reused home resolution: a fresh publication group if the
    /// last call's was merged with another (it may still hold that other lookup's injections and
    /// singletons: the next call would take them for its own, and hand out an object the other
    /// lookup's failure then drops).
    @inline(__always)
    func beginTopLevel() {
        if group.wasMerged.load(ordering: .relaxed) { Coordinator.lock.withLock { group = PublicationGroup() } }
    }

    // MARK: Frames

    @inline(__always)
    func push(_ context: ApplicationContext, _ definition: Int, injectInits: Int) {
        if depth == frames.count { grow() }
        frames.initialize(depth, to: Frame(context: Unretained(context), definition: definition, savedInjectInits: injectInits))
        depth += 1
    }

    @inline(never)
    private func grow() {
        let larger = HeapBuffer<Frame>(count: frames.count * 2)
        larger.moveInitialize(from: frames, count: depth)
        frames.deallocate()
        frames = larger
    }

    /// Pops the innermost frame and returns the `injectInits` saved with it.
    @inline(__always)
    @discardableResult
    func pop() -> Int {
        depth -= 1
        // The popped frame's making is over: a suspension during it no longer counts against
        // the frame that takes its place.
        if suspendedDepth.load(ordering: .relaxed) > depth { lowerSuspendedDepth() }
        return frames.move(depth).savedInjectInits
    }

    @inline(never)
    private func lowerSuspendedDepth() {
        suspendedDepth.store(depth, ordering: .relaxed)
    }

    /// Whether definition `index` of `context` is being made by this lookup or one it is part
    /// of (continuations and nested calls included): making it again would never end. With
    /// `ownLookupOnly`, only this lookup's own frames count (not those of a lookup it is nested in).
    func isMaking(_ index: Int, of context: ApplicationContext, ownLookupOnly: Bool = false) -> Bool {
        isMaking(index, of: context, below: depth, ownLookupOnly: ownLookupOnly)
    }

    /// `isMaking` over this resolution's frames below `limit`, then its parent's. Recursive
    /// rather than a loop over an optional variable, which would retain and release every
    /// resolution visited on each prototype made.
    private func isMaking(_ index: Int, of context: ApplicationContext, below limit: Int, ownLookupOnly: Bool) -> Bool {
        for position in 0..<limit where frames[position].isDefinition(index, of: context) { return true }
        guard let parent, !(ownLookupOnly && isNested) else { return false }
        return parent.isMaking(index, of: context, below: attachDepth, ownLookupOnly: ownLookupOnly)
    }

    /// The path a cycle reported by this lookup starts with: its own path, or, when the cycle
    /// runs through a lookup this one is nested in (`owner`, the one making what closes it, or
    /// this lookup's own repeated definition found only there), the path through that one too,
    /// from that one's own first frame: not the lookups it is nested in, which are not on the
    /// cycle (a closure calling the context directly, whose lookup then meets the cycle).
    func cyclePrefix(closedBy owner: Resolution?) -> [String] {
        keys(followingNestedUpTo: owner)
    }

    /// The resolution whose frames make definition `index` of `context`: this one, one it
    /// continues, or one it is nested in (and so on up); `nil` if none.
    func maker(of index: Int, in context: ApplicationContext) -> Resolution? {
        var resolution: Resolution? = self
        var limit = depth
        while let current = resolution {
            for position in 0..<limit where current.frames[position].isDefinition(index, of: context) { return current }
            limit = current.attachDepth
            resolution = current.parent
        }
        return nil
    }

    /// The keys this lookup is making, outermost first: its own frames after those of the
    /// resolution it continues. A nested lookup's path starts with its own first frame.
    var path: [String] { keys(followingNestedUpTo: nil) }

    /// The keys from the innermost frame out: through the resolutions this one continues, and
    /// through those it is nested in until `owner` (when it is one of them), whose path it then
    /// ends with.
    private func keys(followingNestedUpTo owner: Resolution?) -> [String] {
        var segments: [[String]] = []
        var resolution: Resolution? = self
        var limit = depth
        var following = owner != nil && owner !== self && isWithin(owner!)
        while let current = resolution {
            segments.append((0..<limit).map { current.frames[$0].key })
            if current === owner { following = false }
            if current.isNested && !following { break }
            limit = current.attachDepth
            resolution = current.parent
        }
        return segments.reversed().flatMap { $0 }
    }

    /// This resolution, then the ones it continues or is nested in, outermost last.
    var withAncestors: [Resolution] {
        var chain: [Resolution] = []
        var resolution: Resolution? = self
        while let current = resolution {
            chain.append(current)
            resolution = current.parent
        }
        return chain
    }

    /// Whether `outer` is this resolution or one it continues or is nested in.
    private func isWithin(_ outer: Resolution) -> Bool {
        var resolution: Resolution? = self
        while let current = resolution {
            if current === outer { return true }
            resolution = current.parent
        }
        return false
    }

    /// Whether the definition this resolution makes with `frames` frames pushed (0 before its
    /// frame is pushed, 1 after) is the eager singleton a start is making itself (the start times
    /// that one; only what it pulls in needs the timeline): the resolution's own first frame, in
    /// a resolution that continues no other.
    func isStartingEager(framesAbove frames: Int) -> Bool {
        depth == frames && (parent == nil || isNested)
    }

    /// The path with `key` appended: what an error found while looking `key` up reports.
    func path(appending key: String) -> [String] { path + [key] }
}
