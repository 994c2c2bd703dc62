/// Collects the problems `validate()` finds instead of stopping at the first. Shared by the
/// continuations of the validation's lookups.
final class ProblemCollector: Sendable {
    private struct State {
        var findings: [ValidationReport.Finding] = []
        var seen: Set<String> = []
        var lazyProperties: [LazyInjectionSlot] = []
        /// The concurrent phase's edges of the scratch context that were synchronous lookups.
        var synchronousLookups: Set<Lookup> = []
        /// Edges of properties to async eager singletons, found while an awaited lookup
        /// injected their owner in the concurrent phase: problems only if a synchronous
        /// lookup may also reach the owner then (`settlePropertiesOfAwaitedOwners`).
        var propertiesOfAwaitedOwners: [(owner: Int, target: String, foundIn: String)] = []
    }

    /// A lookup definition `from` made of definition `to` of the same context.
    private struct Lookup: Hashable {
        let from: Int
        let to: Int
    }

    private let state = Locked(State())

    /// What was found, without the `requiresAwait` of an edge that lies on a reported cycle: in a
    /// cycle that also crosses from a synchronous closure to an async definition, the cycle is the
    /// problem (Docs/Async.md, "Cycles, cancellation, the main actor"), and breaking it is the fix.
    var findings: [ValidationReport.Finding] {
        state.withLock { state in
            var cycleEdges: Set<[String]> = []
            for finding in state.findings {
                guard case let .circularDependency(path) = finding.problem else { continue }
                for step in path.indices.dropLast() { cycleEdges.insert([path[step], path[step + 1]]) }
            }
            guard !cycleEdges.isEmpty else { return state.findings }
            return state.findings.filter { finding in
                guard case let .requiresAwait(key, path) = finding.problem, path.count >= 2, path.last == key else { return true }
                return !cycleEdges.contains(Array(path.suffix(2)))
            }
        }
    }

    /// Notes a `.lazy` property the validation filled, to read once it has made every
    /// definition (`InjectRequest.checkLater`).
    func checkLater(_ lazy: LazyInjectionSlot) {
        state.withLock { $0.lazyProperties.append(lazy) }
    }

    /// The `.lazy` properties noted so far, forgotten here.
    func takeLazyProperties() -> [LazyInjectionSlot] {
        state.withLock { state in
            defer { state.lazyProperties = [] }
            return state.lazyProperties
        }
    }

    /// How many findings there are so far (a mark for `dropRequiresAwait(after:where:)`).
    var count: Int { state.withLock { $0.findings.count } }

    /// Forgets the `requiresAwait` findings made after the first `mark` ones (their key and
    /// path) that `isConsequence` says follow from a failure reported already.
    func dropRequiresAwait(after mark: Int, where isConsequence: (String, [String]) -> Bool) {
        state.withLock { state in
            guard mark < state.findings.count else { return }
            let later = state.findings[mark...].filter { finding in
                guard case let .requiresAwait(key, path) = finding.problem else { return true }
                return !isConsequence(key, path)
            }
            state.findings.replaceSubrange(mark..., with: later)
        }
    }

    /// Notes that definition `from` of the scratch context looked up its definition `to`
    /// synchronously during the concurrent phase (a closure's lookup or `dependsOn` name, or a
    /// synchronous first read of a `.lazy` property of its object): the journal's edge does not
    /// tell a synchronous lookup from an awaited one.
    func noteSynchronousLookup(from: Int, to: Int) {
        state.withLock { _ = $0.synchronousLookups.insert(Lookup(from: from, to: to)) }
    }

    /// Holds back a property of the object of definition `owner` naming the async eager
    /// singleton `target`, met while an awaited lookup injected that object during the
    /// concurrent phase, where its properties are filled by awaited lookups: it is a problem
    /// only if a synchronous lookup may reach `owner` then too (and inject it synchronously).
    func holdBack(propertyOf owner: Int, naming target: String, foundIn definition: String) {
        state.withLock { $0.propertiesOfAwaitedOwners.append((owner, target, definition)) }
    }

    /// At the end of the concurrent phase, reports the held-back properties whose owner a
    /// synchronous lookup may reach during it, as the phase's `edges` (of the scratch context)
    /// show: a synchronous lookup noted, and from an object reached so, whatever it looks up or
    /// injects (its injection is then synchronous too). Each is reported on that route: from
    /// the async eager singleton (one of `roots`) it starts at, through the synchronous lookup,
    /// to the owner and the property's target.
    func settlePropertiesOfAwaitedOwners(edges: [Edge], roots: [Int], key: (Int) -> String) {
        let (held, synchronous) = state.withLock { state in
            defer { state.propertiesOfAwaitedOwners = [] }
            return (state.propertiesOfAwaitedOwners, state.synchronousLookups)
        }
        guard !held.isEmpty else { return }
        let own = edges.filter { $0.levels == 0 }
        // How each definition is reached synchronously: the definition it is reached from.
        var reachedFrom: [Int: Int] = [:]
        for edge in own where synchronous.contains(Lookup(from: edge.from, to: edge.to)) && reachedFrom[edge.to] == nil {
            reachedFrom[edge.to] = edge.from
        }
        var grew = true
        while grew {
            grew = false
            for edge in own where reachedFrom[edge.from] != nil && reachedFrom[edge.to] == nil {
                reachedFrom[edge.to] = edge.from
                grew = true
            }
        }
        for property in held {
            guard reachedFrom[property.owner] != nil else { continue }
            let route = Self.route(to: property.owner, reachedFrom: reachedFrom, edges: own, roots: roots).map(key)
            add(.requiresAwait(key: property.target, path: route + [property.target]), foundIn: property.foundIn)
        }
    }

    /// The definitions from a root through the synchronous lookup that reached `owner`, to
    /// `owner`: the synchronous steps back from `owner`, then the shortest run of edges from a
    /// root to where they start.
    private static func route(to owner: Int, reachedFrom: [Int: Int], edges: [Edge], roots: [Int]) -> [Int] {
        var synchronousSteps = [owner]
        while let from = reachedFrom[synchronousSteps[0]], !synchronousSteps.contains(from) {
            synchronousSteps.insert(from, at: 0)
        }
        let start = synchronousSteps[0]
        var cameFrom: [Int: Int] = [:]
        var queue = roots.filter { $0 != start }
        var seen = Set(queue)
        var found = roots.contains(start)
        while !found, !queue.isEmpty {
            var next: [Int] = []
            for node in queue {
                for edge in edges where edge.from == node && seen.insert(edge.to).inserted {
                    cameFrom[edge.to] = node
                    if edge.to == start { found = true }
                    next.append(edge.to)
                }
            }
            queue = next
        }
        var toStart: [Int] = []
        var node = start
        while let previous = cameFrom[node] {
            toStart.insert(previous, at: 0)
            node = previous
        }
        return toStart + synchronousSteps
    }

    /// Keeps the first report of each root cause: a missing key reached through three
    /// definitions is one problem, reported where it was first found.
    func add(_ problem: ContextError, foundIn definition: String) {
        state.withLock { state in
            if state.seen.insert(problem.rootCause).inserted {
                state.findings.append(ValidationReport.Finding(definition: definition, problem: problem))
            }
        }
    }
}
