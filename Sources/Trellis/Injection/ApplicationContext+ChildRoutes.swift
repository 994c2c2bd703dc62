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
}
