/// The dependency edges an object's injection route names, recorded in one entry of the
/// journal before the object's properties are filled (`ApplicationContext.recordRoutedEdges`).
///
/// A context per request injects each of its objects once and records each object's edges:
/// one entry in one round of the lock, where recording each property's edge took a round and
/// an append each. The edges are spelled out only when read (the graph, a close that disposes,
/// a start-up report), in the order they would have been recorded one by one.
struct RoutedEdges {
    /// How many single edges the journal held when this entry was recorded: where its edges go
    /// among them.
    let position: Int
    /// The injected object's definition.
    let from: Int
    /// Unretained: the definition's record keeps its route for as long as the context, and so
    /// its journal, lives.
    let route: Unretained<InjectionRoute>
    /// Field `firstField + p` of the route's plan is routed when bit `p` is set.
    let firstField: Int
    let fields: UInt64

    /// Appends the edges this entry stands for, in field order.
    func spellOut(into edges: inout [Edge]) {
        route.with { route in
            for bit in 0..<UInt64.bitWidth where fields & (1 << UInt64(bit)) != 0 {
                let position = firstField + bit
                let target = route.targets[position]
                edges.append(Edge(from: from, levels: target.levels, to: target.index, label: route.plan.fields.pinned(at: position)))
            }
        }
    }
}
