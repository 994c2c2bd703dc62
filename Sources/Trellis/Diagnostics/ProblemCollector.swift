/// Collects the problems `validate()` finds instead of stopping at the first.
final class ProblemCollector {
    private(set) var findings: [ValidationReport.Finding] = []
    private var seen: Set<String> = []

    /// Keeps the first report of each root cause: a missing key reached through three
    /// definitions is one problem, reported where it was first found.
    func add(_ problem: ContextError, foundIn definition: String) {
        if seen.insert(problem.rootCause).inserted {
            findings.append(ValidationReport.Finding(definition: definition, problem: problem))
        }
    }
}
