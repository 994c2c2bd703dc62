/// The order in which a closing context disposes its made singletons: each before everything it
/// depends on, by the dependency edges recorded when the objects were made (closure lookups and
/// injected properties, through prototypes too); where the edges say nothing, the latest made
/// first. Singletons in a cycle (through `@Inject` properties) are disposed latest made first,
/// once everything outside the cycle that depends on them is disposed; what they depend on
/// outside it waits for the whole cycle.
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
        let component = DependencyCycles.components(of: dependencies)
        // A singleton is ready once everything depending on it is disposed; a cycle may be
        // broken once everything outside it that depends on it is.
        var dependents = Array(repeating: 0, count: made.count)
        var outsideDependents = Array(repeating: 0, count: made.count)
        for (offset, targets) in dependencies.enumerated() {
            for target in targets {
                dependents[target] += 1
                if component[target] != component[offset] { outsideDependents[component[target]] += 1 }
            }
        }
        let latestFirst = { (lhs: Int, rhs: Int) in made[lhs].madeOrder < made[rhs].madeOrder }
        var ready = PriorityQueue(ranksBelow: latestFirst)
        var breakable = PriorityQueue(ranksBelow: latestFirst)
        var members = Array(repeating: [Int](), count: made.count)
        for offset in made.indices {
            if dependents[offset] == 0 { ready.insert(offset) }
            members[component[offset]].append(offset)
        }
        for (cycle, nodes) in members.enumerated() where nodes.count > 1 && outsideDependents[cycle] == 0 {
            for node in nodes { breakable.insert(node) }
        }
        var disposed = Array(repeating: false, count: made.count)
        var order: [Made] = []
        order.reserveCapacity(made.count)
        while order.count < made.count {
            // Nothing ready: every remaining singleton waits for a cycle, and some cycle has
            // nothing outside it left depending on it. Break it at its latest made.
            guard let next = ready.popHighest() ?? breakable.popHighest() else {
                // Cannot happen (the cycles form a DAG, so some cycle is always breakable);
                // were it to, every singleton is still disposed, latest made first.
                let rest = made.indices.filter { !disposed[$0] }.sorted { made[$0].madeOrder > made[$1].madeOrder }
                return order + rest.map { made[$0] }
            }
            guard !disposed[next] else { continue }
            disposed[next] = true
            order.append(made[next])
            for target in dependencies[next] {
                dependents[target] -= 1
                if dependents[target] == 0 { ready.insert(target) }
                let cycle = component[target]
                guard cycle != component[next] else { continue }
                outsideDependents[cycle] -= 1
                if outsideDependents[cycle] == 0, members[cycle].count > 1 {
                    for node in members[cycle] where !disposed[node] { breakable.insert(node) }
                }
            }
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
