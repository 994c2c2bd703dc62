/// When each definition made during one start began and ended being made, on the start's clock:
/// what `StartupReport.criticalPath` and each entry's `waited` are computed from, with the
/// dependency edges the contexts recorded. Shared by the collectors of a start's eager
/// singletons (an async start makes them in concurrent tasks); dropped when the start ends.
final class StartupTimeline: Sendable {
    struct Node: Hashable {
        let context: ObjectIdentifier
        let index: Int
    }

    struct Making {
        // Kept only while the start runs: the contexts on a start's chain are alive anyway.
        let context: ApplicationContext
        let index: Int
        let start: Duration
        var end: Duration?
    }

    let clock = ContinuousClock()
    let began: ContinuousClock.Instant
    private let makings = Locked([Node: Making]())

    init() { began = clock.now }

    /// The time since the start began.
    var now: Duration { clock.now - began }

    /// Definition `index` of `context` is about to be made (a prototype made again replaces
    /// its earlier making).
    func began(_ index: Int, of context: ApplicationContext) {
        let making = Making(context: context, index: index, start: now)
        makings.withLock { $0[Node(context: ObjectIdentifier(context), index: index)] = making }
    }

    /// Definition `index` of `context` is made.
    func ended(_ index: Int, of context: ApplicationContext) {
        let end = now
        makings.withLock { $0[Node(context: ObjectIdentifier(context), index: index)]?.end = end }
    }

    /// `entries` (eager singletons of `context`) with their `waited` filled in, and the start's
    /// critical path: from the eager singleton that ended last, back through the dependency
    /// made during the start whose making took longest, and so on; outermost dependency first.
    func analyse(_ entries: [StartupReport.Entry], of context: ApplicationContext) -> (entries: [StartupReport.Entry], criticalPath: [String]) {
        let made = makings.withLock { $0 }.filter { $0.value.end != nil }
        guard !made.isEmpty else { return (entries, []) }
        // What each definition made during the start depends on, by the recorded edges.
        var dependencies: [Node: [Node]] = [:]
        var seen = Set<ObjectIdentifier>()
        for making in made.values where seen.insert(ObjectIdentifier(making.context)).inserted {
            let chain = Array(making.context.chain)
            for edge in making.context.journal.edges where edge.levels < chain.count {
                let to = Node(context: ObjectIdentifier(chain[edge.levels]), index: edge.to)
                guard made[to] != nil else { continue }
                dependencies[Node(context: ObjectIdentifier(making.context), index: edge.from), default: []].append(to)
            }
        }
        func node(of entry: StartupReport.Entry) -> Node? {
            context.table.definition(withKey: entry.key).map { Node(context: ObjectIdentifier(context), index: $0) }
        }
        // Waited: the part of its making during which what it depends on was being made (by its
        // own lookups, or by another task it waited for).
        let timed = entries.map { entry -> StartupReport.Entry in
            guard let node = node(of: entry) else { return entry }
            let spans = (dependencies[node] ?? []).compactMap { made[$0] }.map { (max($0.start, entry.start), min($0.end!, entry.end)) }
            return entry.waiting(Self.covered(spans))
        }
        guard let last = entries.max(by: { $0.end < $1.end }), var current = node(of: last) else { return (timed, []) }
        var path = [current]
        var end = last.end
        // The dependency that took longest (its own waits included) is the one that held it up
        // most: made by its own lookup, or by another task it waited for. Ties: the later one.
        func length(_ node: Node) -> (Duration, Duration) { (made[node]!.end! - made[node]!.start, made[node]!.end!) }
        while let next = (dependencies[current] ?? []).filter({ !path.contains($0) && made[$0]!.end! <= end }).max(by: { length($0) < length($1) }) {
            path.append(next)
            current = next
            end = made[next]!.end!
        }
        let names = path.reversed().map { node -> String in
            let making = made[node]!
            let key = making.context.table.keys[making.index]
            return making.context === context ? key : "\(making.context.name).\(key)"
        }
        return (timed, names)
    }

    /// The total length covered by `spans` (each `(from, to)`; empty ones ignored).
    static func covered(_ spans: [(Duration, Duration)]) -> Duration {
        var total = Duration.zero
        var reached: Duration?
        for (from, to) in spans.filter({ $0.0 < $0.1 }).sorted(by: { $0.0 < $1.0 }) {
            let start = max(from, reached ?? from)
            if to > start { total += to - start }
            reached = max(reached ?? to, to)
        }
        return total
    }
}
