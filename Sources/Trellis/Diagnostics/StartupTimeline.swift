/// When each definition made during one start began and ended being made, on the start's clock:
/// what `StartupReport.criticalPath` and each entry's `waited` are computed from, with the
/// dependency edges the contexts recorded. Shared by the collectors of a start's eager
/// singletons (an async start makes them in concurrent tasks); dropped when the start ends.
///
/// Its lock also guards the collectors' state (`StartupCollector`): one lock per start, not one
/// per collector and one for the marks (a context made per request with an eager singleton made
/// two locks, each three allocations, for every request).
final class StartupTimeline: @unchecked Sendable {
    struct Node: Hashable {
        let context: ObjectIdentifier
        let index: Int
    }

    struct Making {
        /// Unretained: every context a start makes something of is alive until the start ends
        /// (the one starting, and its parents).
        let context: Unretained<ApplicationContext>
        let index: Int
        var start: Duration
        var end: Duration?
    }

    /// One begin or end of a making, in the order noted: appended under a lock (cheap, and a
    /// start of 1,000 eager singletons notes 2,000), joined into makings once, by `analyse`.
    private struct Mark {
        let context: Unretained<ApplicationContext>
        let index: Int
        let time: Duration
        let isEnd: Bool
    }

    /// A definition made during the start asked for another: what it waited for is only the
    /// part of that one's making after this. Noted with the dependency edge (once per requesting
    /// definition and dependency: its first making records its edges).
    private struct Ask {
        /// Unretained, as a mark's: the requesting definition's context.
        let context: Unretained<ApplicationContext>
        let from: Int
        /// How many parents up the requester's chain the dependency is.
        let levels: Int
        let to: Int
        let time: Duration
    }

    private struct AskedPair: Hashable {
        let from: Node
        let to: Node
    }

    let clock = ContinuousClock()
    let began: ContinuousClock.Instant
    private let lock = Lock.make()
    // Safe (and `@unchecked Sendable`): read and written with `lock` held only, which also
    // makes the runtime's exclusivity check redundant.
    @exclusivity(unchecked) private var marks: [Mark] = []
    @exclusivity(unchecked) private var asks: [Ask] = []
    /// The spans a definition's making spent blocked or suspended waiting for another making
    /// (`SlotClaim`): also one that started before the start, or outside it (a parent's
    /// singleton another task is making), which the marks do not show.
    @exclusivity(unchecked) private var waits: [(node: Node, from: Duration, to: Duration)] = []

    init() {
        began = clock.now
    }

    deinit { lock.destroy() }

    /// Runs `body` with the start's lock held: the marks' and every collector's.
    func withLock<R>(_ body: () -> R) -> R {
        lock.withLock(body)
    }

    /// The time since the start began.
    var now: Duration { clock.now - began }

    /// Definition `index` of `context` is about to be made (a prototype may be made several
    /// times: each making is kept).
    func began(_ index: Int, of context: ApplicationContext) {
        let mark = Mark(context: Unretained(context), index: index, time: now, isEnd: false)
        withLock { marks.append(mark) }
    }

    /// Definition `index` of `context` is made.
    func ended(_ index: Int, of context: ApplicationContext) {
        let mark = Mark(context: Unretained(context), index: index, time: now, isEnd: true)
        withLock { marks.append(mark) }
    }

    /// Definition `from` of `context` asks for definition `to`, `levels` parents up its chain.
    func asked(_ to: Int, levels: Int, from: Int, of context: ApplicationContext) {
        let ask = Ask(context: Unretained(context), from: from, levels: levels, to: to, time: now)
        withLock { asks.append(ask) }
    }

    /// Definition `index` of `context`'s making waited from `from` to now for another making.
    func waited(_ index: Int, of context: ApplicationContext, from: Duration) {
        let wait = (node: Node(context: ObjectIdentifier(context), index: index), from: from, to: now)
        withLock { waits.append(wait) }
    }

    /// When each definition first asked for each of its dependencies.
    private func askedAt() -> [AskedPair: Duration] {
        var times: [AskedPair: Duration] = [:]
        for ask in withLock({ asks }) {
            let asker = ask.context.object
            let owner = asker.ancestor(ask.levels).object
            let pair = AskedPair(from: Node(context: ObjectIdentifier(asker), index: ask.from), to: Node(context: ObjectIdentifier(owner), index: ask.to))
            times[pair] = min(times[pair] ?? ask.time, ask.time)
        }
        return times
    }

    /// Every making that ended, by definition, in the order they ended. An end closes the
    /// latest making of its definition still open: exact for one lookup making a prototype
    /// again; for makings overlapping in two tasks the pairs may cross, which covers the same
    /// time all the same.
    private func makings() -> [Node: [Making]] {
        var open: [Node: [Making]] = [:]
        var ended: [Node: [Making]] = [:]
        for mark in withLock({ marks }) {
            let node = Node(context: ObjectIdentifier(mark.context.object), index: mark.index)
            if mark.isEnd {
                guard var making = open[node]?.popLast() else { continue }
                making.end = mark.time
                ended[node, default: []].append(making)
            } else {
                open[node, default: []].append(Making(context: mark.context, index: mark.index, start: mark.time))
            }
        }
        return ended
    }

    /// `entries` (eager singletons of `context`) with their `waited` filled in, and the start's
    /// critical path: from the eager singleton that ended last, back through the dependency
    /// made during the start whose making took longest, and so on; outermost dependency first.
    func analyse(_ entries: [StartupReport.Entry], of context: ApplicationContext) -> (entries: [StartupReport.Entry], criticalPath: [String]) {
        var allMade = makings()
        // The eager singletons the start made itself are timed by their entries.
        for entry in entries {
            guard let index = context.configuration.table.definition(withKey: entry.key) else { continue }
            allMade[Node(context: ObjectIdentifier(context), index: index)] = [Making(context: Unretained(context), index: index, start: entry.start, end: entry.end)]
        }
        // For the critical path, each definition's last making.
        let made = allMade.compactMapValues(\.last)
        let waits = withLock { self.waits }
        guard !made.isEmpty else { return (entries, []) }
        // What each definition made during the start depends on, by the recorded edges.
        var dependencies: [Node: [Node]] = [:]
        var seen = Set<ObjectIdentifier>()
        for making in made.values {
            let maker = making.context.object
            guard seen.insert(ObjectIdentifier(maker)).inserted else { continue }
            let chain = Array(maker.chain)
            for edge in maker.journal.edges where edge.levels < chain.count {
                let to = Node(context: ObjectIdentifier(chain[edge.levels]), index: edge.to)
                guard made[to] != nil else { continue }
                dependencies[Node(context: ObjectIdentifier(maker), index: edge.from), default: []].append(to)
            }
        }
        func node(of entry: StartupReport.Entry) -> Node? {
            context.configuration.table.definition(withKey: entry.key).map { Node(context: ObjectIdentifier(context), index: $0) }
        }
        // When a dependency was asked for: one made by another task before it was asked for
        // held nothing up. (An edge noted without its time counts from the requester's start.)
        let asked = askedAt()
        func askedFor(_ dependency: Node, by node: Node, from start: Duration) -> Duration {
            max(asked[AskedPair(from: node, to: dependency)] ?? start, start)
        }
        // Waited: the part of its making during which what it depends on was being made after it
        // asked for it (by its own lookups, or by another task it waited for).
        let timed = entries.map { entry -> StartupReport.Entry in
            guard let node = node(of: entry) else { return entry }
            var spans = (dependencies[node] ?? []).flatMap { dependency in
                (allMade[dependency] ?? []).map { (max($0.start, askedFor(dependency, by: node, from: entry.start)), min($0.end!, entry.end)) }
            }
            // And its own waits, for makings the timeline does not show.
            spans += waits.filter { $0.node == node }.map { (max($0.from, entry.start), min($0.to, entry.end)) }
            return entry.waiting(Self.covered(spans))
        }
        guard let last = entries.max(by: { $0.end < $1.end }), var current = node(of: last) else { return (timed, []) }
        var path = [current]
        var end = last.end
        // The dependency that took longest (its own waits included) is the one that held it up
        // most: made by its own lookup, by another task it waited for, or before it began (a
        // synchronous start's earlier eager singletons, an async start's concurrent phase); not
        // one another task made while it ran, before it asked. Ties: the later one.
        func length(_ node: Node) -> (Duration, Duration) { (made[node]!.end! - made[node]!.start, made[node]!.end!) }
        func heldUp(_ node: Node, _ dependency: Node) -> Bool {
            let start = made[node]!.start, end = made[dependency]!.end!
            return end <= start || askedFor(dependency, by: node, from: start) < end
        }
        // A start makes its synchronous eager singletons one after another (an async start, once
        // its concurrent phase has ended, whose end the async eager singleton that ended last
        // set): one made then, or what it pulled in, waited for the one made before it, though
        // no edge says so.
        let eagerNodes = entries.compactMap(node(of:))
        let lastAsync = eagerNodes.filter { context.records[$0.index].isAsync }.max { made[$0]!.end! < made[$1]!.end! }
        let sequence = eagerNodes.filter { !context.records[$0.index].isAsync } + (lastAsync.map { [$0] } ?? [])
        func predecessor(of node: Node) -> Node? {
            let start = made[node]!.start
            return sequence.filter { $0 != node && !path.contains($0) && made[$0]!.end! <= start }.max { made[$0]!.end! < made[$1]!.end! }
        }
        func next(after node: Node) -> Node? {
            let held = (dependencies[node] ?? []).filter { !path.contains($0) && made[$0]!.end! <= end && heldUp(node, $0) }
            // What it made within its own making held it up first; then what the start made
            // before it, unless a dependency ended later still (another task's making).
            if let within = held.filter({ made[$0]!.end! > made[node]!.start }).max(by: { length($0) < length($1) }) { return within }
            guard let before = predecessor(of: node) else { return held.max { length($0) < length($1) } }
            return held.filter { made[$0]!.end! > made[before]!.end! }.max { length($0) < length($1) } ?? before
        }
        while let next = next(after: current) {
            path.append(next)
            current = next
            end = made[next]!.end!
        }
        let names = path.reversed().map { node -> String in
            let maker = made[node]!.context.object
            let key = maker.key(at: node.index)
            return maker === context ? key : "\(maker.name).\(key)"
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
