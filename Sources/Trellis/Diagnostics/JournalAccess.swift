/// The operations on a context's journal, each taking `Coordinator.lock` briefly.
struct JournalAccess {
    /// Unretained: the caller holds the context. `record` uses it at +0, as every object a
    /// context per request makes records its edges.
    let unretained: Unretained<ApplicationContext>
    private var context: ApplicationContext { unretained.object }

    func record(_ edge: Edge) {
        unretained.with { context in
            Coordinator.lock.withLock { Self.append(edge, to: &context.journalStorage.edges) }
        }
    }

    /// Records the edges from definition `index` to the targets of `route`'s fields `firstField
    /// + p` for each bit `p` set in `fields`, in one round of the lock (`RoutedEdges`).
    func record(routed fields: UInt64, from firstField: Int, of route: InjectionRoute, for index: Int) {
        unretained.with { context in
            Coordinator.lock.withLock {
                let entry = RoutedEdges(position: context.journalStorage.edges.count, from: index, route: Unretained(route), firstField: firstField, fields: fields)
                if context.journalStorage.routedEdges.capacity == 0 { context.journalStorage.routedEdges.reserveCapacity(4) }
                context.journalStorage.routedEdges.append(entry)
            }
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
        let (single, routed) = Coordinator.lock.withLock { (context.journalStorage.edges, context.journalStorage.routedEdges) }
        var all: [Edge] = []
        all.reserveCapacity(single.count)
        var next = 0
        for entry in routed {
            while next < entry.position {
                all.append(single[next])
                next += 1
            }
            entry.spellOut(into: &all)
        }
        all.append(contentsOf: single[next...])
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
