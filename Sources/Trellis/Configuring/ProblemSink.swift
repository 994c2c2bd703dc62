/// Where naming problems go: thrown (building a context: the first in the factory as written)
/// or all collected, in the order found (`validate`).
struct ProblemSink {
    let collecting: Bool
    private(set) var problems: [ContextError] = []
    /// A throwing sink's earliest naming problem so far, with its place in the factory: thrown by
    /// `throwEarliest` once every name is checked (the checks do not run in declaration order).
    private var earliest: (place: Int, problem: ContextError)?

    init(collecting: Bool) { self.collecting = collecting }

    mutating func report(_ problem: ContextError) throws(ContextError) {
        guard collecting else { throw problem }
        problems.append(problem)
    }

    /// Reports a naming problem found at `place` (the declaration it is found at): collected, or
    /// kept if it is the earliest so far.
    mutating func report(_ problem: ContextError, at place: Int) {
        if collecting { return problems.append(problem) }
        if let earliest, earliest.place <= place { return }
        earliest = (place, problem)
    }

    /// Throws the earliest naming problem a throwing sink kept.
    func throwEarliest() throws(ContextError) {
        if let earliest { throw earliest.problem }
    }
}
