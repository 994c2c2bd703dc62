/// `dependsOn`: the definitions named by another are made before it, through the lookup its
/// closure would make, and checked before a start makes anything.
extension ApplicationContext {
    /// Looks up each name definition `index` lists with `dependsOn`, for `resolution` (whose
    /// innermost frame is the definition's), and drops the objects: the same path, cycle
    /// detection, async rules and dependency edges as a lookup by its closure. (An async
    /// closure's names are looked up with `await`, as its own lookups are, where it is run:
    /// `DefinitionClosure.runAsync`.)
    @inline(never)
    func makePrerequisites(_ index: Int, _ resolution: Resolution) throws(ContextError) {
        let resolver = Resolver(self, index, resolution)
        for name in configuration.definitions[index].prerequisiteNames {
            _ = try resolver.object(name, as: Any.self)
        }
    }

    /// Checks every `dependsOn` name before a start makes anything: each must name a definition
    /// of this context or a parent, and the names alone must not form a cycle (a lazy
    /// definition's broken order would otherwise surface only at its first lookup).
    ///
    /// - Throws: `noSuchObject` with the path `[key, name]`; `circularDependency` with the path
    ///   of the first cycle found, in declaration order.
    func checkPrerequisites() throws(ContextError) {
        let listing = configuration.definitionsWithPrerequisites
        guard !listing.isEmpty else { return }
        // The names are checked for every context made of the factory (one per request, say),
        // without allocating: the edges within this context are walked for a cycle only if one
        // of them leads to a definition that names others itself (a cycle needs one).
        var mayCycle = false
        for index in listing {
            for name in configuration.definitions[index].prerequisiteNames {
                guard let found = definition(answering: NameTable.lookupKey(name)) else {
                    throw .noSuchObject(key: name, searched: chain.map(\.name), path: [key(at: index), name])
                }
                if found.levels == 0 && records[found.index].hasPrerequisites { mayCycle = true }
            }
        }
        if mayCycle, let cycle = firstCycle(listing) {
            throw .circularDependency(path: cycle.map { key(at: $0) })
        }
    }

    /// The first cycle of the `dependsOn` edges within this context, depth-first from each
    /// definition of `listing` in declaration order: its definitions, the first repeated at the
    /// end; `nil` if there is none. (A parent never names a child's definitions.) Every name
    /// answers: `checkPrerequisites` checked them.
    private func firstCycle(_ listing: [Int]) -> [Int]? {
        var targets = [Int: [Int]]()
        for index in listing {
            for name in configuration.definitions[index].prerequisiteNames {
                guard let found = definition(answering: NameTable.lookupKey(name)), found.levels == 0 else { continue }
                targets[index, default: []].append(found.index)
            }
        }
        // 0 unvisited, 1 on the current path, 2 done.
        var state = [Int: UInt8]()
        var path: [Int] = []
        func visit(_ index: Int) -> [Int]? {
            state[index] = 1
            path.append(index)
            for target in targets[index] ?? [] {
                switch state[target] ?? 0 {
                case 1: return Array(path[path.firstIndex(of: target)!...]) + [target]
                case 0: if let cycle = visit(target) { return cycle }
                default: break
                }
            }
            path.removeLast()
            state[index] = 2
            return nil
        }
        for index in listing where state[index] == nil {
            if let cycle = visit(index) { return cycle }
        }
        return nil
    }
}
