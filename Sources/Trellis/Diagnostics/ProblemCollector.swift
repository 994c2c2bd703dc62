/// Collects the problems `validate()` finds instead of stopping at the first. Shared by the
/// continuations of the validation's lookups.
final class ProblemCollector: Sendable {
    private struct State {
        var findings: [ValidationReport.Finding] = []
        var seen: Set<String> = []
        var lazyProperties: [LazyInjectionSlot] = []
        /// The concurrent phase's edges of the scratch context that were awaited lookups.
        var awaitedLookups: Set<AwaitedLookup> = []
        /// Edges of properties to async eager singletons, found while an awaited lookup
        /// injected their owner in the concurrent phase: problems only if a synchronous
        /// lookup may also reach the owner then (`settlePropertiesOfAwaitedOwners`).
        var propertiesOfAwaitedOwners: [(owner: Int, problem: ContextError, foundIn: String)] = []
    }

    /// A lookup definition `from` made of definition `to` of the same context, with `await`.
    private struct AwaitedLookup: Hashable {
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

    /// Notes that definition `from` of the scratch context looked up its definition `to` with
    /// `await` during the concurrent phase (one edge of the journal, which does not tell).
    func noteAwaitedLookup(from: Int, to: Int) {
        state.withLock { _ = $0.awaitedLookups.insert(AwaitedLookup(from: from, to: to)) }
    }

    /// Holds back `problem`, a property of the object of definition `owner` naming an async
    /// eager singleton, met while an awaited lookup injected that object during the concurrent
    /// phase, where its properties are filled by awaited lookups: it is a problem only if a
    /// synchronous lookup may reach `owner` then too (and inject it synchronously).
    func holdBack(_ problem: ContextError, ofPropertyOf owner: Int, foundIn definition: String) {
        state.withLock { $0.propertiesOfAwaitedOwners.append((owner, problem, definition)) }
    }

    /// At the end of the concurrent phase, adds the held-back problems whose owner a synchronous
    /// lookup may reach during it, as the phase's `edges` (of the scratch context, in the order
    /// recorded) show: a synchronous closure's lookup, or an async closure's made without
    /// `await`; and, from an object reached so, its properties and lookups (its injection is then
    /// synchronous too).
    func settlePropertiesOfAwaitedOwners(edges: [Edge], isAsync: (Int) -> Bool) {
        let (held, awaited) = state.withLock { state in
            defer { state.propertiesOfAwaitedOwners = [] }
            return (state.propertiesOfAwaitedOwners, state.awaitedLookups)
        }
        guard !held.isEmpty else { return }
        let own = edges.filter { $0.levels == 0 }
        var reached = Set<Int>()
        for edge in own where edge.label == nil && !(isAsync(edge.from) && awaited.contains(AwaitedLookup(from: edge.from, to: edge.to))) {
            reached.insert(edge.to)
        }
        var grew = true
        while grew {
            grew = false
            for edge in own where reached.contains(edge.from) && reached.insert(edge.to).inserted { grew = true }
        }
        for property in held where reached.contains(property.owner) {
            add(property.problem, foundIn: property.foundIn)
        }
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
