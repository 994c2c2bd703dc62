/// What one thread is making right now: the resolution path, innermost last.
///
/// Every creation (closure call and injection) runs synchronously on the thread that asked, so
/// the objects being made on a thread form a stack and a per-thread stack is exactly the
/// resolution path: cycle detection and error paths read it, and no lookup allocates one.
final class CreationStack: @unchecked Sendable {
    // Safe: `frames`, `injectInits`, `startup`, `problems` and `nextFreshStack` are touched only
    // by the thread that owns the stack (it is thread-local; a `FreshStack` thread adopts it
    // only while its owner is blocked joining that thread). Other threads read `waitingFor` and compare stack identities
    // for deadlock detection, and only while holding `Coordinator.lock`, which guards `waitingFor`.
    struct Frame {
        /// Unretained: the context is kept alive by the lookup that pushed the frame.
        let context: Unmanaged<ApplicationContext>
        let definition: Int
        /// `injectInits` of the frame below, restored on pop.
        let savedInjectInits: Int

        var key: String { context.takeUnretainedValue().table.keys[definition] }
    }

    var frames: [Frame] = []
    /// `@Inject` wrappers initialised since the innermost frame was pushed (reflection check).
    var injectInits = 0
    /// The slot this thread is blocked on, if any; guarded by `Coordinator.lock`.
    var waitingFor: Slot?
    /// Collects what an eager singleton pulls in while the context starts.
    var startup: StartupCollector?
    /// Set while `validate()` runs on this thread: problems are collected, not thrown.
    var problems: ProblemCollector?
    /// The depth at which the next lookup moves to a fresh thread (see `FreshStack`).
    var nextFreshStack = FreshStack.framesPerThread

    init() { frames.reserveCapacity(16) }

    func push(_ context: ApplicationContext, _ definition: Int) {
        frames.append(Frame(context: .passUnretained(context), definition: definition, savedInjectInits: injectInits))
        injectInits = 0
    }

    func pop() {
        injectInits = frames.removeLast().savedInjectInits
    }

    /// Whether `definition` of `context` is being made on this thread.
    func contains(_ context: ApplicationContext, _ definition: Int) -> Bool {
        let target = Unmanaged.passUnretained(context).toOpaque()
        return frames.contains { $0.definition == definition && $0.context.toOpaque() == target }
    }

    /// The keys on the path, outermost first.
    var path: [String] { frames.map(\.key) }
}
