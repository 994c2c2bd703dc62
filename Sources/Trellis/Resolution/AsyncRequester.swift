/// Who an async lookup is for; see `Requester`. Retains what it names, since an async lookup
/// may outlive the frame that asked.
@usableFromInline
struct AsyncRequester: Sendable {
    let context: ApplicationContext
    let index: Int
    let resolution: Resolution
    let depth: Int
    let label: Pinned<InjectionPlan.Field>?
    /// The lookup comes from the library itself, executing `resolution` (an async injection):
    /// it extends `resolution` rather than starting a continuation.
    let extendsResolution: Bool

    /// A closure's lookup through its resolver: a continuation of the closure's resolution,
    /// since the resolver may be used from several child tasks at once.
    init(_ resolver: Resolver) {
        context = resolver.context
        index = resolver.requester
        resolution = resolver.resolution
        depth = resolver.depth
        label = nil
        extendsResolution = false
    }

    /// A property of an object that `resolution` is injecting.
    init(_ context: ApplicationContext, _ index: Int, _ resolution: Resolution, label: Pinned<InjectionPlan.Field>) {
        self.context = context
        self.index = index
        self.resolution = resolution
        self.depth = resolution.depth
        self.label = label
        extendsResolution = true
    }

    /// Records the dependency edge (async lookups have no synchronous-use rules).
    func noteLookup(to index: Int, levels: Int) {
        guard self.index >= 0, !context.records[self.index].edgesRecorded.load(ordering: .relaxed) else { return }
        context.journal.record(Edge(from: self.index, levels: levels, to: index, label: label))
        if resolution.collectsStartup { resolution.session.startup?.timeline.asked(index, levels: levels, from: self.index, of: context) }
    }

    var path: [String] { resolution.path }
}
