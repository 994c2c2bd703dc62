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
                        return Outcome(position: position, result: result, wasCancelled: Task.isCancelled)
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
                case let .failure(error): failures.append(Failure(position: outcome.position, error: error, wasCancelled: outcome.wasCancelled))
                }
            }
            // Each async eager singleton's place, by key, worked out only for a failed start.
            if !failures.isEmpty, let failure = Self.earliestFailure(failures, eagerPositions: Dictionary(
                concurrent.enumerated().map { (context.key(at: $0.element), $0.offset) }, uniquingKeysWith: { first, _ in first }), in: context) {
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
        let wasCancelled: Bool
    }

    /// A failed async eager singleton of the concurrent phase.
    struct Failure {
        let position: Int
        let error: ContextError
        /// Its task was cancelled when it failed: the failure is the cancellation's, whatever
        /// error it is (a closure may throw an error of its own for it, as `URLSession` does).
        let wasCancelled: Bool
    }

    /// The failure of the earliest-declared eager singleton, not counting failures caused by
    /// the cancellation that followed the first one; when every failure came after it (the
    /// start was cancelled from outside), the earliest declared.
    ///
    /// One genuine failure may reach several eager singletons through their lookups, and which
    /// task met it first (which one made the failing definition while the others waited, then
    /// retried and were cancelled) is a matter of timing. So it is reported once, as the eager
    /// singleton nearest its cause met it (the last of `context`'s eager singletons on its path,
    /// `eagerPositions` giving each key's place), counting as having met it every eager
    /// singleton whose retry of the same failing singleton of `context` was cancelled; among
    /// those as near, the earliest declared. Steps are told as `context`'s own only where no
    /// parent answers to their names (`ownSteps`): a parent's definition is never taken for one
    /// of its child's.
    static func earliestFailure(_ failures: [Failure], eagerPositions: [String: Int], in context: ApplicationContext) -> ContextError? {
        /// The eager singleton's place of the definition `name` names, if it is one of
        /// `context`'s own eager singletons.
        func eagerPosition(_ name: String) -> Int? {
            context.ownIndex(of: name).flatMap { eagerPositions[context.key(at: $0)] }
        }
        let keys = Dictionary(eagerPositions.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        /// Whether `failure`'s path begins at its own eager singleton: the error came through its
        /// lookups (one from another context it holds passes through as that context told it).
        func isOwnPath(_ failure: Failure) -> Bool {
            guard let first = failure.error.path.first, let index = context.ownIndex(of: first) else { return false }
            return context.key(at: index) == keys[failure.position]
        }
        /// `failure` as the eager singleton nearest its end met it, with that one's place.
        func met(_ failure: Failure) -> Failure {
            guard isOwnPath(failure) else { return failure }
            let path = failure.error.path
            var steps = context.ownSteps(of: path)
            // A failed making is its definition's own (its key ends the path); any other error
            // is about the last step (`m` looked `a3` up synchronously), which it keeps.
            if case .creationFailed = failure.error {} else { steps = min(steps, path.count - 1) }
            guard let start = path.prefix(steps).lastIndex(where: { eagerPosition($0) != nil }),
                  let position = eagerPosition(path[start]) else { return failure }
            return Failure(position: position, error: failure.error.rerooted(from: start), wasCancelled: failure.wasCancelled)
        }
        /// Whether `failure` met `cause`: the same problem, or its retry of the same failing
        /// singleton of `context` cancelled (both paths `context`'s own to the end).
        func meets(_ failure: Failure, _ cause: Failure) -> Bool {
            if failure.error.rootCause == cause.error.rootCause { return true }
            guard failure.wasCancelled, isOwnPath(failure), isOwnPath(cause),
                  case let .creationFailed(key, path, _) = failure.error,
                  case let .creationFailed(causeKey, causePath, _) = cause.error, key == causeKey,
                  context.ownSteps(of: path) == path.count, context.ownSteps(of: causePath) == causePath.count,
                  let index = context.ownIndex(of: key) else { return false }
            return context.records[index].scope.isSingleton
        }
        func nearer(_ one: Failure, _ other: Failure) -> Bool { (one.error.path.count, one.position) < (other.error.path.count, other.position) }
        // Each genuine cause once, as its nearest genuine failure tells it (not whichever ended
        // first: two tellings of one cause may differ in their error's text).
        var causes: [String: (failure: Failure, met: Failure)] = [:]
        for failure in failures where !failure.wasCancelled {
            let seen = (failure: failure, met: met(failure))
            if let kept = causes[failure.error.rootCause], !nearer(seen.met, kept.met) { continue }
            causes[failure.error.rootCause] = seen
        }
        guard !causes.isEmpty else { return failures.min { $0.position < $1.position }?.error }
        var reported: [Failure] = []
        for (cause, _) in causes.values {
            let nearest = failures.filter { meets($0, cause) }.map(met).min(by: nearer) ?? cause
            // Told as the genuine failure, also where the nearest met it as a cancelled retry.
            var error = nearest.error
            if case let .creationFailed(key, path, _) = error, case let .creationFailed(_, _, underlying) = cause.error {
                error = .creationFailed(key: key, path: path, underlying: underlying)
            }
            reported.append(Failure(position: nearest.position, error: error, wasCancelled: false))
        }
        return reported.min { $0.position < $1.position }?.error
    }
}
