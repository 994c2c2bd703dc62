/// Disposes objects made while their context was closing: they were never handed out by the
/// context, so the lookup that made them disposes them (after every lock is released).
enum LateDisposal {
    /// `owners`: each made value's owner (`MadeValue.owner`): the object itself, or its box.
    static func dispose(_ owners: [AnyObject]) {
        for owner in owners {
            let value = (owner as? ValueBox)?.anyValue ?? owner
            switch Disposal(of: value) {
            case let .synchronous(disposable):
                try? disposable.dispose()
            case .asynchronous, .onMainActor:
                let handOver = UncheckedSendable(value)
                Task { try? await Disposal.dispose(handOver.value) }
            case .none:
                break
            }
        }
    }
}
