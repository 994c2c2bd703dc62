/// The operations on a context's journal, each taking `Coordinator.lock` briefly (edges, while
/// the context's `EdgeLog` has slots, without it).
struct JournalAccess {
    /// Unretained: the caller holds the context. `record` uses it at +0, as every object a
    /// context per request makes records its edges.
    let unretained: Unretained<ApplicationContext>
    private var context: ApplicationContext { unretained.object }

    /// Records `edge`: in a slot of the context's `EdgeLog`, without the lock, while one is
    /// free.
    @inline(__always)
    func record(_ edge: Edge) {
        record(.one(edge))
    }

    /// Records the edges from definition `index` to the targets of `route`'s fields `firstField
    /// + p` for each bit `p` set in `fields` (`RecordedEdges.routed`).
    func record(routed fields: UInt64, from firstField: Int, of route: InjectionRoute, for index: Int) {
        record(.routed(from: index, route: Unretained(route), firstField: firstField, fields: fields))
    }

    /// The making of definition `index` failed, and it was never made: drops the edges that
    /// making recorded (a retry that no longer asks for a dependency would otherwise keep it,
    /// a false edge that could even close a false cycle and reverse the disposal order).
    func voidEdges(from index: Int) {
        record(.voided(from: index))
    }

    @inline(__always)
    private func record(_ entry: RecordedEdges) {
        unretained.with { context in
            guard let overflow = context.edgeLog.record(entry, in: context.tables.edges) else { return }
            Coordinator.lock.withLock { context.withLockedState { $0.journal.edges.append(overflow) } }
        }
    }

    func appendStartup(_ entries: [StartupReport.Entry], timeline: StartupTimeline) {
        Coordinator.lock.withLock {
            context.withLockedState { state in
                // Kept as they are when the journal has none yet (every start but a failed
                // one's retry): appending copied them into a second array.
                if state.journal.startup.isEmpty {
                    state.journal.startup = entries
                } else {
                    state.journal.startup.append(contentsOf: entries)
                }
                state.journal.startupTimeline = timeline
            }
        }
    }

    /// Every distinct edge, in the order first recorded.
    var edges: [Edge] {
        let context = self.context
        let logged = context.edgeLog.entries(in: context.tables.edges)
        let overflow = Coordinator.lock.withLock { context.lockedStorage?.journal.edges ?? [] }
        var all: [Edge] = []
        for entry in logged { entry.spellOut(into: &all) }
        for entry in overflow { entry.spellOut(into: &all) }
        var seen = Set<Edge>()
        return all.filter { seen.insert($0).inserted }
    }

    var startup: [StartupReport.Entry] { Coordinator.lock.withLock { context.lockedStorage?.journal.startup ?? [] } }

    /// The start-up entries with their waits, and the critical path; worked out from the
    /// timeline on the first read (without the lock: it reads the journals' edges).
    var analysedStartup: (entries: [StartupReport.Entry], criticalPath: [String]) {
        let context = self.context
        let (done, entries, timeline) = Coordinator.lock.withLock {
            (context.lockedStorage?.journal.analysedStartup, context.lockedStorage?.journal.startup ?? [], context.lockedStorage?.journal.startupTimeline)
        }
        if let done { return done }
        guard let timeline else { return (entries, []) }
        let analysed = timeline.analyse(entries, of: context)
        Coordinator.lock.withLock {
            context.withLockedState { state in
                state.journal.analysedStartup = analysed
                state.journal.startupTimeline = nil
            }
        }
        // The timeline is released here, after the lock.
        withExtendedLifetime(timeline) {}
        return analysed
    }
}
