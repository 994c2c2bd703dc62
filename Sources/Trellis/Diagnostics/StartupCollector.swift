/// Collects what an eager singleton pulls in while the context starts. Shared by the
/// continuations of the singleton's lookup, which may run in several child tasks at once.
final class StartupCollector: @unchecked Sendable {
    private struct State {
        var pulledIn: [String] = []
        /// The eager singleton itself, which is not "pulled in".
        var eager: (context: ObjectIdentifier, key: String)?
        /// Whether this collector's own lookup made the eager singleton (rather than finding it
        /// made by another, which lists it as pulled in).
        var madeEager = false
    }

    // Safe (and `@unchecked Sendable`): read and written with the timeline's lock held only
    // (`withState`), which also makes the runtime's exclusivity check redundant.
    @exclusivity(unchecked) private var state = State()
    /// When everything made during the start began and ended.
    let timeline: StartupTimeline

    init(timeline: StartupTimeline) { self.timeline = timeline }

    private func withState<R>(_ body: (inout State) -> R) -> R {
        timeline.withLock { body(&state) }
    }

    /// Eager singleton `key` of `context` is about to be made.
    func begin(_ key: String, of context: ApplicationContext) {
        withState { $0 = State(pulledIn: [], eager: (ObjectIdentifier(context), key)) }
    }

    /// What was pulled in since `begin`.
    func takePulledIn() -> [String] {
        withState { state in
            defer { state.pulledIn = [] }
            return state.pulledIn
        }
    }

    /// Definition `index` of `context` is about to be made; `isEager`: it is the eager singleton
    /// the start is making, which the start times itself.
    func began(_ index: Int, of context: ApplicationContext, isEager: Bool) {
        if !isEager { timeline.began(index, of: context) }
    }

    /// Definition `index` of `context` was made while the eager singleton was made.
    func made(_ index: Int, of context: ApplicationContext, isEager: Bool) {
        if !isEager { timeline.ended(index, of: context) }
        pulledIn(context.key(at: index), of: context)
    }

    /// An object was made while the eager singleton was made.
    func pulledIn(_ key: String, of context: ApplicationContext) {
        withState { state in
            if let eager = state.eager, eager.context == ObjectIdentifier(context), eager.key == key {
                state.madeEager = true
                return
            }
            state.pulledIn.append("\(context.name).\(key)")
        }
    }

    /// Whether the eager singleton was made by the lookup this collector belongs to.
    var madeEager: Bool { withState { $0.madeEager } }
}
