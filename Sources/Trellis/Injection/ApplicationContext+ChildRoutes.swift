extension ApplicationContext {
    /// The routes this context keeps for its children, made on first use.
    var childRoutes: ChildRoutes {
        if let kept = childRoutesStorage.load(ordering: .acquiring) { return kept.takeUnretainedValue() }
        let made = Unmanaged.passRetained(ChildRoutes())
        let (exchanged, original) = childRoutesStorage.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made.takeUnretainedValue() }
        made.release()
        return original!.takeUnretainedValue()
    }
}
