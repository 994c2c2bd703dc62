/// Where naming problems go: collected, in the order found (`validate`), or, building a context,
/// the first one thrown.
///
/// A name's checks note problems without throwing; the configuration calls `throwFirst` after each
/// definition's names, so a throwing sink holds at most the problems of one definition and
/// throws the first of them.
struct ProblemSink {
    let collecting: Bool
    private(set) var problems: [ContextError] = []

    init(collecting: Bool) { self.collecting = collecting }

    /// Reports `problem`: thrown by a throwing sink, collected otherwise.
    mutating func report(_ problem: ContextError) throws(ContextError) {
        guard collecting else { throw problem }
        problems.append(problem)
    }

    /// Notes a naming problem: collected (once: a name declared twice meets its problem
    /// twice), or kept for `throwFirst` if it is the first.
    mutating func note(_ problem: ContextError) {
        if collecting ? !problems.contains(problem) : problems.isEmpty { problems.append(problem) }
    }

    /// Throws the first naming problem a throwing sink kept.
    func throwFirst() throws(ContextError) {
        if !collecting, let first = problems.first { throw first }
    }
}
