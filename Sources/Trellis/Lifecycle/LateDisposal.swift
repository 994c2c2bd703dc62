/// Disposes objects made while their context was closing: they were never handed out by the
/// context, so the lookup that made them disposes them (after every lock is released).
enum LateDisposal {
    static func dispose(_ boxes: [AnyObject]) {
        for case let box as AnyBox in boxes {
            let value = box.anyValue
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
