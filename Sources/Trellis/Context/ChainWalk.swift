
/// A name as every context's table looks it up: canonical, with its hash (`NameTable.lookupKey`).
typealias LookupKey = (name: String, hash: UInt32)

extension ApplicationContext {
    /// The one walk of the chain that every lookup by name takes — by key, by alias, from an
    /// injection route, from validation — nearest context first.
    ///
    /// The key is hashed once by the caller; every table on the chain hashes alike. The walk
    /// retains nothing: the caller holds this context and every context holds its parent (two
    /// threads retaining one parent would write its reference count on every lookup).
    ///
    /// - Parameters:
    ///   - fromParent: start at the parent (the caller has searched this context already).
    ///   - passingClosed: go on through closed contexts (`contains`, route finding) instead of
    ///     stopping at the first.
    @inline(__always)
    func walk(to key: LookupKey, fromParent: Bool = false, passingClosed: Bool = false) -> ChainStop {
        var current: Unretained<ApplicationContext>? = fromParent ? parentRef : Unretained(self)
        var levels = fromParent ? 1 : 0
        while let context = current {
            let stop = context.with { open -> ChainStop? in
                if !passingClosed && open.isClosed { return .closed(context) }
                if let index = open.configuration.table.definition(named: key.name, hash: key.hash) { return .found(context, index: index, levels: levels) }
                current = open.parentRef
                return nil
            }
            if let stop { return stop }
            levels += 1
        }
        return .missing
    }

    /// The open context that answers to `name` (hashed as `key`), the definition there, and how
    /// many parents up it is.
    ///
    /// - Throws: `contextClosed` when the walk reaches a closed context; `noSuchObject` (with
    ///   `path`) when no context answers.
    func locateOpen(_ key: LookupKey, named name: String, path: @autoclosure () -> [String]) throws(ContextError) -> (context: ApplicationContext, index: Int, levels: Int) {
        switch walk(to: key) {
        case let .found(context, index, levels): return (context.object, index, levels)
        case let .closed(context): throw context.object.closedError(looking: name)
        case .missing: throw .noSuchObject(key: name, searched: chain.map(\.name), path: path())
        }
    }

    /// The context `levels` parents up this one's chain (0: itself), unretained: this context
    /// holds it. `levels` must be within the chain (a position found by `walk` on it).
    @inline(__always)
    func ancestor(_ levels: Int) -> Unretained<ApplicationContext> {
        var context = Unretained(self)
        for _ in 0..<levels { context = context.with { $0.parentRef! } }
        return context
    }

    /// The context `levels` parents up, if it and every context before it are open.
    @inline(__always)
    func openAncestor(_ levels: Int) -> Unretained<ApplicationContext>? {
        var context = Unretained(self)
        var level = 0
        while true {
            let (closed, parent) = context.with { ($0.isClosed, $0.parentRef) }
            if closed { return nil }
            if level == levels { return context }
            guard let parent else { return nil }
            context = parent
            level += 1
        }
    }
}
