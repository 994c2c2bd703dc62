/// The order in which a closing context disposes its made singletons: each before everything it
/// depends on, by the dependency edges recorded when the objects were made (closure lookups and
/// injected properties, through prototypes too); where the edges say nothing, the latest made
/// first. The singletons of a cycle (through `@Inject` properties) are disposed together, latest
/// made first, once everything outside the cycle that depends on them is disposed; what they
/// depend on outside it waits for the whole cycle; and the cycle as a whole takes its place among
/// the others by its latest made member.
///
/// O((N + E) log N) in the made singletons and their edges: a context of tens of thousands of
/// disposable singletons closes in milliseconds.
enum DisposalOrder {
    struct Made {
        let index: Int
        let value: MadeValue
        let madeOrder: UInt64
        /// How it is disposed: classified once per close (`ContextClosing.disposables`), by
        /// a cast that must not run under the lock.
        var disposal = Disposal.none
    }

    /// The disposable singletons `made` (the caller left out those never disposed; the edges
    /// through them still order the others) in disposal order: a request context whose objects
    /// dispose nothing reads no edge.
    static func of(_ made: [Made], edges: @autoclosure () -> [Edge], definitions count: Int) -> [Made] {
        guard made.count > 1 else { return made }
        let dependencies = directDependencies(of: made, edges: edges(), definitions: count)
        // Each cycle is disposed as one unit, all its members together; a singleton outside
        // any cycle is a unit of its own. The units and the edges between them have no cycle.
        let unit = DependencyCycles.components(of: dependencies)
        var members = Array(repeating: [Int](), count: made.count)
        var latestMade = Array(repeating: UInt64.min, count: made.count)
        // A unit is ready once every unit depending on it is disposed.
        var dependents = Array(repeating: 0, count: made.count)
        for (offset, targets) in dependencies.enumerated() {
            members[unit[offset]].append(offset)
            latestMade[unit[offset]] = max(latestMade[unit[offset]], made[offset].madeOrder)
            for target in targets where unit[target] != unit[offset] { dependents[unit[target]] += 1 }
        }
        // Where the edges say nothing, the unit with the latest made member first.
        let rank = latestMade
        var ready = PriorityQueue { (lhs: Int, rhs: Int) in rank[lhs] < rank[rhs] }
        for cycle in members.indices where !members[cycle].isEmpty && dependents[cycle] == 0 { ready.insert(cycle) }
        var order: [Made] = []
        order.reserveCapacity(made.count)
        var disposed = Array(repeating: false, count: made.count)
        while let next = ready.popHighest() {
            // Within a cycle, which has no order of its own, the latest made first.
            let nodes = members[next].count > 1 ? members[next].sorted { made[$0].madeOrder > made[$1].madeOrder } : members[next]
            for node in nodes {
                order.append(made[node])
                disposed[node] = true
                for target in dependencies[node] where unit[target] != next {
                    dependents[unit[target]] -= 1
                    if dependents[unit[target]] == 0 { ready.insert(unit[target]) }
                }
            }
        }
        // Every unit was ready in turn (the units form no cycle), so nothing is left here; were
        // anything left, it would still be disposed, latest made first.
        if order.count < made.count {
            order += made.indices.filter { !disposed[$0] }.sorted { made[$0].madeOrder > made[$1].madeOrder }.map { made[$0] }
        }
        return order
    }

    /// What each made singleton depends on directly, by offset in `made`: the made singletons
    /// reached through `edges`, passing through prototypes and anything not made.
    private static func directDependencies(of made: [Made], edges: [Edge], definitions count: Int) -> [[Int]] {
        var successors = Array(repeating: [Int](), count: count)
        for edge in edges where edge.levels == 0 && edge.from != edge.to {
            successors[edge.from].append(edge.to)
        }
        var position = Array(repeating: -1, count: count)
        for (offset, singleton) in made.enumerated() { position[singleton.index] = offset }
        var dependencies = Array(repeating: [Int](), count: made.count)
        var visitedBy = Array(repeating: -1, count: count)
        for (offset, singleton) in made.enumerated() {
            visitedBy[singleton.index] = offset
            var work = successors[singleton.index]
            while let next = work.popLast() {
                guard visitedBy[next] != offset else { continue }
                visitedBy[next] = offset
                if position[next] >= 0 {
                    dependencies[offset].append(position[next])
                } else {
                    work += successors[next]
                }
            }
        }
        return dependencies
    }
}
