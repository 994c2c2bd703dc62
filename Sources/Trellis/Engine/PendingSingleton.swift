/// A singleton made and injected as far as it could be without waiting, whose injection must
/// await a property before it is finished: what `SingletonSlot.createWithoutWaiting` hands the
/// async driver that finishes it (`finish`).
///
/// The slot is `injecting`, owned by the resolution that made it, as in the middle of
/// `SingletonSlot.madeAsync`; the frame of the singleton is pushed again while its injection
/// goes on. Holds nothing retained but the made value: the context is held by whoever finishes
/// it (the lookup), as a `SingletonSlot` is.
struct PendingSingleton {
    let slot: SingletonSlot
    let made: MadeValue
    /// Where its making stands (`publishedOrInjecting`), for `failInjecting` and
    /// `finishCreating`.
    let injecting: SingletonSlot.Injecting
    let injection: ObjectInjection
    let step: ObjectInjection.AsyncStep

    /// Awaits what the injection must await, then finishes it and publishes the singleton (with
    /// its group): the end of `SingletonSlot.madeAsync`. `nil` when it was dropped for what it
    /// may hold (`SingletonSlot.finishCreating`), to be claimed again.
    func finish(_ resolution: Resolution) async throws(ContextError) -> MadeValue? {
        resolution.push(slot.context, slot.index, injectInits: 0)
        defer { resolution.pop() }
        do {
            try await injection.finish(step)
        } catch {
            slot.failInjecting(resolution, since: injecting.mark)
            throw error
        }
        return try slot.finishCreating(resolution, injecting) ? made : nil
    }
}
