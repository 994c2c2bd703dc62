/// Disposes objects made while their context was closing: they were never handed out by the
/// context, so the lookup that made them disposes them (after every lock is released).
///
/// Except a weak singleton's: the context never owns it (Docs/RunningAService.md), so it is only
/// released, and its `deinit` cleans up.
enum LateDisposal {
    /// A singleton made while its context was closing.
    struct Made {
        /// The made value's owner (`MadeValue.owner`): the object itself, or its box.
        let owner: AnyObject
        /// A weak singleton's: released, never disposed.
        let isWeak: Bool
    }

    static func dispose(_ made: [Made]) {
        for late in made where !late.isWeak {
            let owner = late.owner
            let value = (owner as? ValueBox)?.anyValue ?? owner
            switch Disposal(of: value) {
            case let .synchronous(disposable):
                try? disposable.dispose()
            case .asynchronous, .onMainActor:
                let handOver = UncheckedSendable(value)
                Task { try? await Disposal.dispose(handOver.value) }
            case .none, .unreachable:
                // Never handed out: nobody to report a conformance the context cannot reach to.
                break
            }
        }
    }
}
