/// The order in which a closing context disposes its made singletons: each before everything it
/// depends on, by the dependency edges recorded when the objects were made (closure lookups and
/// injected properties, through prototypes too); where the edges say nothing, the latest made
/// first. Singletons in a cycle (through `@Inject` properties) are disposed latest made first.
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
        let edges = edges()
        var successors = Array(repeating: [Int](), count: count)
        for edge in edges where edge.levels == 0 && edge.from != edge.to {
            successors[edge.from].append(edge.to)
        }
        var position = [Int: Int]()
        for (offset, singleton) in made.enumerated() { position[singleton.index] = offset }
        // What each made singleton depends on directly: the made singletons reached through
        // edges, passing through prototypes and anything not made.
        var dependencies = Array(repeating: Set<Int>(), count: made.count)
        for (offset, singleton) in made.enumerated() {
            var visited: Set<Int> = [singleton.index]
            var work = successors[singleton.index]
            while let next = work.popLast() {
                guard visited.insert(next).inserted else { continue }
                if let target = position[next] {
                    dependencies[offset].insert(target)
                } else {
                    work += successors[next]
                }
            }
        }
        // Kahn's algorithm: a singleton is ready once everything depending on it is disposed.
        var dependents = Array(repeating: 0, count: made.count)
        for set in dependencies { for target in set { dependents[target] += 1 } }
        var disposed = Array(repeating: false, count: made.count)
        var order: [Made] = []
        order.reserveCapacity(made.count)
        while order.count < made.count {
            let remaining = made.indices.filter { !disposed[$0] }
            let ready = remaining.filter { dependents[$0] == 0 }
            // In a cycle nothing is ready: break it at the latest made.
            let next = (ready.isEmpty ? remaining : ready).max { made[$0].madeOrder < made[$1].madeOrder }!
            disposed[next] = true
            order.append(made[next])
            for target in dependencies[next] { dependents[target] -= 1 }
        }
        return order
    }
}
