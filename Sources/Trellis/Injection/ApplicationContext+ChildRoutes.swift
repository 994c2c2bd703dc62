extension ApplicationContext {
    /// The routes this context keeps for its children, made on first use.
    var childRoutes: ChildRoutes {
        if let kept = childRoutesStorage.load(ordering: .acquiring) { return kept.object }
        let made = Unretained.retained(ChildRoutes())
        let (exchanged, original) = childRoutesStorage.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made.object }
        made.release()
        return original!.object
    }

    /// The route a sibling (a child of the same parent with the same names) made for
    /// definition `index`, when it is for objects of `typeID`: stored in this context's record
    /// (which holds it from now on) and returned at +0. `nil` if there is none, or if another
    /// thread stored a route first.
    func siblingRoute(at index: Int, for typeID: ObjectIdentifier) -> InjectionRoute? {
        guard let parentRef, let routes = parentRef.with({ $0.childRoutesStorage.load(ordering: .acquiring) }),
              let route = routes.with({ $0.template(for: configuration.table) })?.with({ $0.route(at: index) }),
              route.with({ $0.plan.typeID == typeID }) else { return nil }
        let shared = route.with { $0.isShared }
        let held = shared ? route : route.retainedAgain()
        guard records[index].injection.compareExchange(expected: nil, desired: held, ordering: .acquiringAndReleasing).exchanged else {
            if !shared { held.release() }
            return nil
        }
        return route.object
    }

    /// Keeps the route this child made for definition `index` for its siblings
    /// (`siblingRoute`): the first child of a shape teaches, the later ones take.
    func teach(_ route: Unretained<InjectionRoute>, at index: Int) {
        guard let parentRef else { return }
        parentRef.with { $0.childRoutes.learningTemplate(for: configuration.table) }?.with { $0.learn(route, at: index) }
    }
}
