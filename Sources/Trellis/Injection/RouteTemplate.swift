import Synchronization

/// The injection routes the children of one context with one name table have made, one per
/// definition: what a new child of that shape takes for the first object of each definition, so
/// a context made per request does not find the route of each object it makes (the type's plan,
/// the route's targets, the parent's `ChildRoutes` under its lock) on every request.
///
/// A route holds no context (a target is an index and a number of parents up), so every child
/// with the same names under the same parent can use it. It is taken only for an object of its
/// type (an override in a test, or a closure that picks a class, may make another): otherwise
/// the child finds its own, as before. Kept by the parent's `ChildRoutes` for the parent's
/// lifetime; holds one retain of each route it keeps that is not shared.
final class RouteTemplate: Sendable {
    /// The children's name table, compared by identity: a factory type's table is cached, so
    /// every child of one factory type has the same one.
    let names: NameTable
    // Safe: allocated in init, freed in deinit; every slot is an atomic, read and written only
    // through it.
    nonisolated(unsafe) private let routes: HeapBuffer<Atomic<Unretained<InjectionRoute>?>>

    init(names: NameTable, count: Int) {
        self.names = names
        routes = HeapBuffer(count: count)
        for index in 0..<count { routes.initialize(index, to: Atomic(nil)) }
    }

    deinit {
        for index in 0..<routes.count {
            if let route = routes[index].load(ordering: .acquiring), !route.with({ $0.isShared }) { route.release() }
            _ = routes.move(index)
        }
        routes.deallocate()
    }

    /// Keeps `route`, which a child made for definition `index`, unless one is kept already.
    func learn(_ route: Unretained<InjectionRoute>, at index: Int) {
        guard index < routes.count, routes[index].load(ordering: .relaxed) == nil else { return }
        let shared = route.with { $0.isShared }
        let kept = shared ? route : route.retainedAgain()
        if !routes[index].compareExchange(expected: nil, desired: kept, ordering: .acquiringAndReleasing).exchanged, !shared {
            kept.release()
        }
    }

    /// The route kept for definition `index`, at +0 (the template keeps it); `nil` if none.
    func route(at index: Int) -> Unretained<InjectionRoute>? {
        index < routes.count ? routes[index].load(ordering: .acquiring) : nil
    }
}
