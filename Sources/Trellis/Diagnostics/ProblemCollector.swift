/// Collects the problems `validate()` finds instead of stopping at the first. Shared by the
/// continuations of the validation's lookups.
final class ProblemCollector: Sendable {
    private struct State {
        var findings: [ValidationReport.Finding] = []
        var seen: Set<String> = []
    }

    private let state = Locked(State())

    var findings: [ValidationReport.Finding] { state.withLock { $0.findings } }

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
