/// One entry of a context's record of its dependency edges: one edge (a closure's lookup, a
/// property looked up by name, a lazy property's first read), or all the edges an injected
/// object's route names, recorded at once before its properties are filled
/// (`ApplicationContext.recordRoutedEdges`).
///
/// `BitwiseCopyable` (indices, and references the context keeps alive held unretained), so an entry is
/// written into the context's `EdgeLog` with a plain store. The routed form is spelled out into
/// edges only when read (the graph, a close that disposes, a start-up report).
enum RecordedEdges: BitwiseCopyable {
    case one(Edge)
    /// The edges from definition `from` to the targets of fields `firstField + p` of `route`,
    /// for each bit `p` set in `fields`. Unretained: the definition's record keeps its route for
    /// as long as the context, and so this entry, lives.
    case routed(from: Int, route: Unretained<InjectionRoute>, firstField: Int, fields: UInt64)
    /// The making of definition `from` failed before it was ever made: the edges it recorded
    /// (entries before this one) are not dependencies of anything made, and a later making
    /// records its own.
    case voided(from: Int)

    /// Appends the edges this entry stands for, in field order (or, voided, removes the edges
    /// from its definition appended so far).
    func spellOut(into edges: inout [Edge]) {
        switch self {
        case let .one(edge):
            edges.append(edge)
        case let .voided(from):
            edges.removeAll { $0.from == from }
        case let .routed(from, route, firstField, fields):
            route.with { route in
                for bit in 0..<UInt64.bitWidth where fields & (1 << UInt64(bit)) != 0 {
                    let position = firstField + bit
                    let target = route.targets[position]
                    edges.append(Edge(from: from, levels: target.levels, to: target.index, label: route.plan.fields.pinned(at: position)))
                }
            }
        }
    }
}
