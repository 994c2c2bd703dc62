/// A dependency recorded while an object was made: definition `from` of a context looked up
/// definition `to` of the context `levels` up its parent chain (0: itself).
struct Edge: Hashable, @unchecked Sendable {
    // Safe: `label` points into an injection plan, which is immutable and never freed.
    let from: Int
    let levels: Int
    let to: Int
    /// The injected property, or `nil` for a closure lookup. A pointer rather than its name: a
    /// short-lived context records every edge of every object it makes, and copying a string
    /// costs a retain each time.
    let label: UnsafePointer<InjectionPlan.Field>?

    /// The injected property's name, or `nil` for a closure lookup.
    var labelName: String? { label?.pointee.property }
}

/// What a context records about itself: dependency edges (for the graph and the disposal
/// order) and the start-up log. Written on creation paths only (never on the lookup of a made
/// object). What lookups by type found is kept apart, in `TypeLookupCache`.
///
/// Guarded by `Coordinator.lock` rather than a lock of its own: a context made per request
/// would otherwise allocate and initialise a mutex per request, and the journal is written
/// only where creation takes that lock anyway.
struct ContextJournal {
    /// In the order recorded; duplicates are dropped when read.
    var edges: [Edge] = []
    var startup: [StartupReport.Entry] = []
    /// When everything the start made began and ended, until the report is first read: the
    /// critical path and the waits are worked out then, not while the context starts.
    var startupTimeline: StartupTimeline?
    /// `startup` with the waits filled in, and the critical path, once worked out.
    var analysedStartup: (entries: [StartupReport.Entry], criticalPath: [String])?
}

/// The operations on a context's journal, each taking `Coordinator.lock` briefly.
struct JournalAccess {
    /// Unretained: the caller holds the context. `record` uses it at +0, as every object a
    /// context per request makes records its edges.
    let unretained: Unmanaged<ApplicationContext>
    private var context: ApplicationContext { unretained.takeUnretainedValue() }

    func record(_ edge: Edge) {
        unretained.withGuaranteedReference { context in
            Coordinator.lock.withLock { Self.append(edge, to: &context.journalStorage.edges) }
        }
    }

    private static func append(_ edge: Edge, to edges: inout [Edge]) {
        // A short-lived context records a handful of edges: one allocation for them instead of
        // growing the array 1, 2, 4, 8.
        if edges.capacity == 0 { edges.reserveCapacity(8) }
        edges.append(edge)
    }

    func appendStartup(_ entries: [StartupReport.Entry], timeline: StartupTimeline) {
        Coordinator.lock.withLock {
            context.journalStorage.startup.append(contentsOf: entries)
            context.journalStorage.startupTimeline = timeline
        }
    }

    /// Every distinct edge, in the order first recorded.
    var edges: [Edge] {
        let all = Coordinator.lock.withLock { context.journalStorage.edges }
        var seen = Set<Edge>()
        return all.filter { seen.insert($0).inserted }
    }

    var startup: [StartupReport.Entry] { Coordinator.lock.withLock { context.journalStorage.startup } }

    /// The start-up entries with their waits, and the critical path; worked out from the
    /// timeline on the first read (without the lock: it reads the journals' edges).
    var analysedStartup: (entries: [StartupReport.Entry], criticalPath: [String]) {
        let context = self.context
        let (done, entries, timeline) = Coordinator.lock.withLock {
            (context.journalStorage.analysedStartup, context.journalStorage.startup, context.journalStorage.startupTimeline)
        }
        if let done { return done }
        guard let timeline else { return (entries, []) }
        let analysed = timeline.analyse(entries, of: context)
        Coordinator.lock.withLock {
            context.journalStorage.analysedStartup = analysed
            context.journalStorage.startupTimeline = nil
        }
        // The timeline is released here, after the lock.
        withExtendedLifetime(timeline) {}
        return analysed
    }
}
