/// The injection routes of a context's children, kept by the parent: one per object type and
/// child name table.
///
/// A route depends only on the type's fields, the child's names and the parent's chain, and a
/// context made per request under the same parent has the same names (its factory's table is
/// cached, `NameTableCache`): the first request finds each route, every later one takes it from
/// here. Nothing here owns a context or an object: a route holds indices and levels, an entry
/// holds the name table it was found with (so the table's identity cannot be reused while the
/// entry lives), and the whole store lives and dies with the parent that holds it.
final class ChildRoutes: @unchecked Sendable {
    // Safe: `entries` is only read or written with `lock` held.
    private struct Entry {
        let plan: ObjectIdentifier
        let names: NameTable
        let route: InjectionRoute
    }

    /// At most this many routes are kept: names that differ per child (a factory generating its
    /// definitions from the request) must not grow a long-lived parent without bound.
    static let capacity = 64

    private let lock = Lock.make()
    @exclusivity(unchecked) private var entries: [Entry] = []

    deinit { lock.destroy() }

    /// The route for objects of `plan`'s type injected in a child with `names`, retained for
    /// the caller; `make` finds it the first time (outside the lock: it reads only names).
    func route(for plan: InjectionPlan, names: NameTable, make: () -> InjectionRoute) -> Unretained<InjectionRoute> {
        let id = ObjectIdentifier(plan)
        if let kept = find(id, names) { return kept }
        let made = make()
        return lock.withLock {
            // By index: iterating would copy each entry (three retains and releases).
            for position in entries.indices where entries[position].plan == id && entries[position].names === names {
                return .retained(entries[position].route)
            }
            if entries.count == Self.capacity { entries.removeFirst() }
            entries.append(Entry(plan: id, names: names, route: made))
            return .retained(made)
        }
    }

    private func find(_ plan: ObjectIdentifier, _ names: NameTable) -> Unretained<InjectionRoute>? {
        lock.withLock {
            for position in entries.indices where entries[position].plan == plan && entries[position].names === names {
                return .retained(entries[position].route)
            }
            return nil
        }
    }
}
