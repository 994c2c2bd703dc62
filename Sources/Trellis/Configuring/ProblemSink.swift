/// Where naming problems go: thrown at the first (building a context) or all collected
/// (`validate`).
struct ProblemSink {
    let collecting: Bool
    private(set) var problems: [ContextError] = []

    init(collecting: Bool) { self.collecting = collecting }

    mutating func report(_ problem: ContextError) throws(ContextError) {
        guard collecting else { throw problem }
        problems.append(problem)
    }
}
