
/// What a context records about itself under the lock: the dependency edges its `EdgeLog` had
/// no slot left for (for the graph and the disposal order), and the start-up log. Written on
/// creation paths only (never on the lookup of a made object). What lookups by type found is
/// kept apart, in `TypeLookupCache`.
///
/// Guarded by `Coordinator.lock` rather than a lock of its own: a context made per request
/// would otherwise allocate and initialise a mutex per request.
struct ContextJournal {
    /// The edges recorded after the context's `EdgeLog` filled its slots, in the order
    /// recorded; duplicates are dropped when read.
    var edges: [RecordedEdges] = []
    var startup: [StartupReport.Entry] = []
    /// When everything the start made began and ended, until the report is first read: the
    /// critical path and the waits are worked out then, not while the context starts.
    var startupTimeline: StartupTimeline?
    /// `startup` with the waits filled in, and the critical path, once worked out.
    var analysedStartup: (entries: [StartupReport.Entry], criticalPath: [String])?
}
