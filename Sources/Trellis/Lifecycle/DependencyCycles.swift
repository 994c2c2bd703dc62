/// The cycles of a dependency graph: its strongly connected components (Tarjan's algorithm,
/// iterative, so a chain of any length cannot exhaust the stack).
enum DependencyCycles {
    /// The component of each node of `graph` (`graph[node]`: the nodes it depends on); nodes
    /// of one cycle share a component, every other node has one of its own. Components are
    /// numbered from 0 up to the node count.
    static func components(of graph: [[Int]]) -> [Int] {
        let count = graph.count
        var index = Array(repeating: -1, count: count)
        var lowLink = Array(repeating: 0, count: count)
        var onStack = Array(repeating: false, count: count)
        var component = Array(repeating: -1, count: count)
        var stack: [Int] = []
        var next = 0, components = 0
        // Each frame: a node and how many of its successors were visited.
        var frames: [(node: Int, successor: Int)] = []
        for root in 0..<count where index[root] < 0 {
            frames.append((root, 0))
            while let (node, successor) = frames.last {
                if successor == 0 {
                    index[node] = next
                    lowLink[node] = next
                    next += 1
                    stack.append(node)
                    onStack[node] = true
                }
                if successor < graph[node].count {
                    frames[frames.count - 1].successor += 1
                    let target = graph[node][successor]
                    if index[target] < 0 {
                        frames.append((target, 0))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
                guard lowLink[node] == index[node] else { continue }
                while let member = stack.popLast() {
                    onStack[member] = false
                    component[member] = components
                    if member == node { break }
                }
                components += 1
            }
        }
        return component
    }
}
