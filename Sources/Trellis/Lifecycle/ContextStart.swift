/// How a context starts: its `dependsOn` names checked, then its eager singletons made (in
/// declaration order, or the async ones concurrently first), each timed for the start-up report;
/// on a failure, what was made is disposed. The context's initialisers are its entry points.
struct ContextStart {
    let context: ApplicationContext

    init(_ context: ApplicationContext) { self.context = context }

    /// Makes the eager singletons in declaration order, timing each for `startupReport`; on a
    /// failure, disposes what it made and rethrows.
    func run() throws(ContextError) {
        try context.checkPrerequisites()
        let eager = context.configuration.eagerDefinitions
        guard !eager.isEmpty else { return }
        // Decided before anything is made: a synchronous start never leaves async work behind.
        if let index = eager.first(where: { context.records[$0].isAsync }) {
            let key = context.key(at: index)
            throw .requiresAwait(key: key, path: [key])
        }
        StartupWarmUp.once()
        let timeline = StartupTimeline()
        let collector = StartupCollector(timeline: timeline)
        var entries: [StartupReport.Entry] = []
        entries.reserveCapacity(eager.count)
        do {
            try Resolution.run(from: nil, session: Session(startup: collector)) { resolution, thread throws(ContextError) in
                for index in eager where !context.isMade(index) {
                    let start = timeline.now
                    collector.begin(context.key(at: index), of: context)
                    _ = try SingletonSlot(context, index).made(resolution, thread)
                    entries.append(StartupReport.Entry(key: context.key(at: index), start: start, end: timeline.now, pulledIn: collector.takePulledIn()))
                }
            }
        } catch {
            context.disposeWhatWasMade()
            throw error
        }
        context.journal.appendStartup(entries, timeline: timeline)
    }

    /// The async start: the async eager singletons concurrently, each in a child task (its
    /// lookups wait by suspending), then the synchronous ones in declaration order. A failure
    /// cancels the others; what was made is disposed and released, and the failure of the
    /// earliest-declared eager singleton that failed (not because it was cancelled) is thrown.
    nonisolated(nonsending)
    func runConcurrently() async throws(ContextError) {
        try context.checkPrerequisites()
        let eager = context.configuration.eagerDefinitions
        guard !eager.isEmpty else { return }
        StartupWarmUp.once()
        let timeline = StartupTimeline()
        let outer = Resolution.asyncActive
        var entries: [StartupReport.Entry] = []
        // During the concurrent phase, a synchronous closure never gets an async definition
        // (made or not), so whether the start succeeds never depends on timing.
        let concurrent = eager.filter { context.records[$0].isAsync }
        if !concurrent.isEmpty {
            let outcomes = await withTaskGroup(of: Outcome.self) { group in
                for (position, index) in concurrent.enumerated() {
                    group.addTask {
                        let result = await self.startEager(index, timeline: timeline, outer: outer, restricted: true)
                        // Read when it failed: a failure that came once the start was cancelled
                        // is the cancellation's, whatever error the closure made of it.
                        return Outcome(position: position, result: result, failedCancelled: Task.isCancelled)
                    }
                }
                var outcomes: [Outcome] = []
                for await outcome in group {
                    if case .failure = outcome.result { group.cancelAll() }
                    outcomes.append(outcome)
                }
                return outcomes
            }
            var failures: [Failure] = []
            for outcome in outcomes {
                switch outcome.result {
                case let .success(entry): if let entry { entries.append(entry) }
                case let .failure(error): failures.append(Failure(position: outcome.position, error: error, isCancellation: outcome.failedCancelled || error.isCancellation))
                }
            }
            let positions = Dictionary(concurrent.enumerated().map { (context.key(at: $0.element), $0.offset) }, uniquingKeysWith: { first, _ in first })
            if let failure = Self.earliestFailure(failures, eagerPositions: positions) {
                // What was made is disposed, every disposal awaited; the start's failure is
                // what the caller gets, not a disposal's.
                _ = try? await context.close()
                throw failure
            }
        }
        for index in eager where !context.records[index].isAsync && !context.isMade(index) {
            switch await startEager(index, timeline: timeline, outer: outer, restricted: false) {
            case let .success(entry):
                if let entry { entries.append(entry) }
            case let .failure(error):
                _ = try? await context.close()
                throw error
            }
        }
        // Listed in the order their making finished (tasks are collected in whatever order the
        // group hands them back).
        entries.sort { $0.end < $1.end }
        context.journal.appendStartup(entries, timeline: timeline)
    }

    /// Makes eager singleton `index` in a resolution of its own (nested in the closure that
    /// started this context, if any).
    /// `nil` entry: another eager singleton made it first (it is listed in that one's `pulledIn`).
    nonisolated(nonsending)
    private func startEager(_ index: Int, timeline: StartupTimeline, outer: ActiveFrame?, restricted: Bool) async -> Result<StartupReport.Entry?, ContextError> {
        let collector = StartupCollector(timeline: timeline)
        let session = Session(startup: collector, restrictsAsyncOf: restricted ? context : nil)
        let resolution = Resolution.forAsyncEntry(session, nestedIn: outer)
        defer { resolution.release() }
        let start = timeline.now
        collector.begin(context.key(at: index), of: context)
        do throws(ContextError) {
            _ = try await SingletonSlot(context, index).madeAsync(resolution)
            guard collector.madeEager else { return .success(nil) }
            return .success(StartupReport.Entry(key: context.key(at: index), start: start, end: timeline.now, pulledIn: collector.takePulledIn()))
        } catch {
            return .failure(error)
        }
    }

    /// How one async eager singleton of the concurrent phase ended.
    struct Outcome: Sendable {
        /// Its place among the async eager singletons, in declaration order.
        let position: Int
        let result: Result<StartupReport.Entry?, ContextError>
        /// Its task was cancelled when it ended.
        let failedCancelled: Bool
    }

    /// A failed async eager singleton of the concurrent phase.
    struct Failure {
        let position: Int
        let error: ContextError
        /// Caused by the cancellation: a `CancellationError`, or any failure that came after its
        /// task was cancelled (a closure may throw an error of its own for it, as `URLSession`
        /// does).
        let isCancellation: Bool
    }

    /// The failure of the earliest-declared eager singleton, not counting failures caused by
    /// the cancellation that followed the first one (unless every failure is one). One genuine
    /// failure may reach several eager singletons through their lookups, and which task met it
    /// first (which one made the failing definition, before the others waited or retried) is a
    /// matter of timing: it is reported once, as the eager singleton nearest its cause met it
    /// (the last eager singleton on its path, `eagerPositions` giving each one's place), so a
    /// start with one failing eager singleton fails the same way every time.
    static func earliestFailure(_ failures: [Failure], eagerPositions: [String: Int]) -> ContextError? {
        let causes = Set(failures.filter { !$0.isCancellation }.map(\.error.rootCause))
        guard !causes.isEmpty else { return failures.min { $0.position < $1.position }?.error }
        var nearest: [String: Failure] = [:]
        for failure in failures where causes.contains(failure.error.rootCause) {
            // A failed making is its definition's own (its key ends the path); any other error
            // is about the last step (`m` looked `a3` up synchronously), which it keeps.
            let isMakingFailure: Bool
            if case .creationFailed = failure.error { isMakingFailure = true } else { isMakingFailure = false }
            let path = isMakingFailure ? failure.error.path[...] : failure.error.path.dropLast()
            let root = path.last { eagerPositions[$0] != nil }
            let met = root.map { Failure(position: eagerPositions[$0]!, error: failure.error.rerooted(at: $0), isCancellation: failure.isCancellation) } ?? failure
            let cause = met.error.rootCause
            if let kept = nearest[cause], (kept.error.path.count, kept.position) <= (met.error.path.count, met.position) { continue }
            nearest[cause] = met
        }
        return nearest.values.min { $0.position < $1.position }?.error
    }
}
