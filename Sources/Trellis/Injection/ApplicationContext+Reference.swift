extension ApplicationContext {
    /// The reference this context's lazy and current-context properties share, made on first
    /// use (the context is then referred to weakly, which gives it a side table: a context no
    /// such property names never gets one). At +0: the context keeps it.
    var reference: ContextReference {
        if let kept = referenceStorage.load(ordering: .acquiring) { return kept.object }
        let made = Unretained.retained(ContextReference(self))
        let (exchanged, original) = referenceStorage.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if exchanged { return made.object }
        made.release()
        return original!.object
    }
}
