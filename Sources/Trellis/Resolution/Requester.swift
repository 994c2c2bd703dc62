/// Who a lookup is for: the definition whose closure (or injection) asks, in which resolution,
/// at which depth. `nil` where a lookup is a top-level call on a context.
///
/// Unretained: a `Resolver` or the injection that builds a requester keeps everything in it alive
/// for the duration of the lookup.
@usableFromInline
struct Requester {
    // Everything is read by the inlinable lookups of `Resolver` only through non-inlinable code;
    // the type itself must be visible to them.
    /// The context that owns the requesting definition.
    let context: Unretained<ApplicationContext>
    /// The requesting definition; -1 for `inject(into:)` of an object the context did not make.
    let index: Int
    let resolution: Unretained<Resolution>
    /// How many frames `resolution` had when the request was made: the closure's own frame.
    let depth: Int
    /// The injected property (its name labels the edge), or `nil` for a closure's lookup.
    let label: Pinned<InjectionPlan.Field>?

    /// Records the dependency edge to definition `index` of `found` (`levels` up the requester's
    /// chain) and applies the rules of synchronous lookups of async and main-actor definitions:
    /// during the concurrent phase of a start, an async definition is `requiresAwait` even if
    /// made, and a main-actor one off the main actor is `MainActorRequired` even if made; while
    /// validating, an edge that timing could leave unmade is reported.
    @inline(__always)
    func noteLookup(of found: ApplicationContext, _ index: Int, levels: Int) throws(ContextError) {
        recordEdge(to: index, levels: levels)
        if found.records[index].hasSynchronousUseRules { try checkSynchronousUse(of: found, index) }
    }

    @inline(__always)
    func recordEdge(to index: Int, levels: Int) {
        guard self.index >= 0 else { return }
        context.with { context in
            if !context.records[self.index].edgesRecorded.load(ordering: .relaxed) {
                context.journal.record(Edge(from: self.index, levels: levels, to: index, label: label))
                if resolution.with({ $0.collectsStartup }) { noteAsked(index, levels: levels) }
                if context.isValidation { noteSynchronousLookup(of: index, levels: levels) }
            }
        }
    }

    /// While validating: a closure's lookup (or `dependsOn` name) of its own context is a
    /// synchronous one (`Session.noteSynchronousLookup`).
    @inline(never)
    private func noteSynchronousLookup(of index: Int, levels: Int) {
        guard levels == 0, label == nil else { return }
        resolution.object.session.noteSynchronousLookup(from: self.index, to: index)
    }

    /// During a start, when the requesting definition asked for definition `index`
    /// (`StartupTimeline`): noted with its first making's edges.
    @inline(never)
    private func noteAsked(_ index: Int, levels: Int) {
        context.with { context in
            resolution.object.session.startup?.timeline.asked(index, levels: levels, from: self.index, of: context)
        }
    }

    @inline(never)
    private func checkSynchronousUse(of found: ApplicationContext, _ index: Int) throws(ContextError) {
        guard found.records[index].isAsync else { return try checkMainActorUse(of: found, index) }
        let resolution = self.resolution.object
        let session = resolution.session
        let isSafe = found.records[index].scope == .eagerSingleton && !session.isStarting(found)
        guard !isSafe else { return }
        let key = found.key(at: index)
        // A cycle that crosses from synchronous to async code is a cycle first; unless the
        // async singleton is being injected, its object made: a property cycle (an async
        // service and the main-actor screen it injects, which injects it), where the lookup
        // takes the object early as in any other.
        // (Asked first, the synchronous side of such a cycle would need the async definition
        // not made yet: a validation still reports the edge, below.)
        if resolution.isMaking(index, of: found), session.restrictsAsync || !SingletonSlot(found, index).isSharedEarly() {
            throw Creation(of: index, in: found).prototypeCycle(resolution)
        }
        if session.restrictsAsync, let waited = SingletonSlot(found, index).cycle(to: resolution) {
            throw .circularDependency(path: resolution.path + [key] + waited)
        }
        let problem = ContextError.requiresAwait(key: key, path: resolution.path(appending: key))
        if session.restrictsAsync { throw problem }
        session.problems?.add(problem, foundIn: context.with { $0.key(at: self.index) })
    }

    /// The concurrent phase's rule for a synchronous main-actor definition: a synchronous frame
    /// of a definition whose closure may run anywhere (a synchronous closure an async eager
    /// singleton pulled in) never gets it, made or not, and wherever it happens to run: it could
    /// make it only when asked for on the main actor, so the start would succeed or fail by which
    /// eager singleton asked first, or whether one had made it yet. A main-actor closure's own
    /// lookups, which always run there, may. Elsewhere, where the lookup runs decides, and a made
    /// one is handed out.
    private func checkMainActorUse(of found: ApplicationContext, _ index: Int) throws(ContextError) {
        let resolution = self.resolution.object
        let session = resolution.session
        guard session.restrictsAsync, found.records[index].scope != .eagerSingleton || session.isStarting(found) else { return }
        let runsThere = self.index >= 0 ? context.with { $0.configuration.definitions[self.index].maker.isMainActorBound } : MainActorCall.isOnMainActor
        guard !runsThere else { return }
        let key = found.key(at: index)
        throw .creationFailed(key: key, path: resolution.path(appending: key), underlying: MainActorRequired(key: key))
    }
}
