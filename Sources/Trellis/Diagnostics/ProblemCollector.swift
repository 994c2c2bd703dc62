/// Collects the problems `validate()` finds instead of stopping at the first. Shared by the
/// continuations of the validation's lookups.
final class ProblemCollector: Sendable {
    private struct State {
        var findings: [ValidationReport.Finding] = []
        var seen: Set<String> = []
        var lazyProperties: [LazyInjectionSlot] = []
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
