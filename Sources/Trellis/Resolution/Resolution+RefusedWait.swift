extension Resolution {
    /// A synchronous singleton whose making a synchronous step of an async lookup could not
    /// wait for (`SingletonSlot.refusedWait`). Holds its context strongly: only async
    /// resolutions, which live for one lookup, note one, and the driver takes it at once.
    struct RefusedWait {
        let context: ApplicationContext
        let index: Int
        /// The key the refusal's `requiresAwait` names.
        let key: String
    }

    /// The async lookup whose driver may wait for what this resolution is refused: itself when
    /// it is async, else the one a synchronous lookup nested in a synchronous step (a closure
    /// calling the context directly) runs inside of, which executes on this thread meanwhile;
    /// `nil` for a synchronous lookup no async lookup encloses.
    var awaitingLookup: Resolution? {
        var resolution = self
        while !resolution.isAsync {
            guard resolution.isNested, let outer = resolution.parent else { return nil }
            resolution = outer
        }
        return resolution
    }

    /// After `error` ended an attempt of an async driver (`SingletonSlot.madeAsync`,
    /// `Creation.madeAsync`) to make something: if it is the `requiresAwait` of a wait a
    /// synchronous step of this lookup was refused (noted in `refusedWait`), waits by suspending
    /// until nobody makes that singleton and returns, for the driver to make again; otherwise,
    /// or where that wait cannot be made either, throws `error`.
    ///
    /// A thread would have blocked for that making; a task's synchronous step must not (it would
    /// hold a thread of the cooperative pool, perhaps the one the maker needs), but the async
    /// lookup it is part of can wait, one level up, where it may suspend: what the synchronous
    /// step made is dropped with it (its closure saw an error), and made again after the wait.
    ///
    /// Where that wait would close a cycle (the maker came to wait, since the refusal, for what
    /// this lookup is making), the step is made again at once, once: its claim now sees the
    /// cycle, as a blocking lookup's would, and takes the object early in a property cycle (or
    /// reports the cycle of closures). A second such refusal in a row throws.
    func awaitRefusedWait(after error: ContextError) async throws(ContextError) {
        let refused = refusedWait
        refusedWait = nil
        guard let refused, case let .requiresAwait(key, _) = error, key == refused.key else { throw error }
        switch try await SingletonSlot(refused.context, refused.index).waitUntilNobodyMakesIt(self) {
        case .ended:
            retriedOnACycle = false
        case .cycle where !retriedOnACycle:
            retriedOnACycle = true
        case .cycle, .mustNotWait:
            retriedOnACycle = false
            throw error
        }
    }
}
