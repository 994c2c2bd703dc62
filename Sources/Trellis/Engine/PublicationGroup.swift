import Synchronization

/// Singletons that wait to be published together.
///
/// A singleton is cached for its own lookup before its properties are injected (property
/// cycles need the early reference). Whatever is made while it is being injected may hold that
/// unfinished object, so once it handed out an early reference it is published only when every
/// injection of the group has finished (alone, it is published when its own ends:
/// `SingletonSlot.finishAlone`); if one fails, what may hold the failed object is dropped — the
/// failing lookup's pending singletons and those of the lookups holding an early reference
/// handed out since (`earlyReferences`) — however the error was handled on the way out. A
/// lookup that receives an early reference from another group merges its group into that one.
///
/// Guarded by `Coordinator.lock`.
final class PublicationGroup: @unchecked Sendable {
    // Safe: every property is read and written only while holding `Coordinator.lock`.
    struct Injector {
        let resolution: Resolution
        let depth: Int
    }

    struct Pending {
        /// Retained until publication: the lookup that made it may have dropped the context.
        let context: ApplicationContext
        let index: Int
        let sequence: UInt64
        /// The resolution that made it.
        let maker: Resolution

        var slot: SingletonSlot { SingletonSlot(context, index) }
    }

    // Unchecked exclusivity: every access holds `Coordinator.lock` (see above), and the
    // runtime's dynamic check would cost more than the access on every singleton made.
    /// Set when merged into another group: that group stands for this one.
    @exclusivity(unchecked) var forward: PublicationGroup?
    /// Set (under the lock) when this group absorbed another or was absorbed: it may hold another
    /// lookup's injections and singletons, so a thread's home resolution does not reuse it for
    /// its next top-level call (`Resolution.beginTopLevel`), which reads it without the lock.
    let wasMerged = Atomic<Bool>(false)
    /// The singletons of the group being injected right now, with the frame injecting each.
    @exclusivity(unchecked) var injectors: [Injector] = []
    /// Made singletons waiting for the group's injections to end.
    @exclusivity(unchecked) var pending: [Pending] = []
    /// When (`Coordinator.nextSequence()`) a lookup of the group last received an early
    /// reference (an object not published yet), or another group was merged in; 0: never. A
    /// singleton made after that, with nothing to inject, cannot hold an unfinished object and
    /// is published without waiting for the group (`publishIfNothingToInject`).
    @exclusivity(unchecked) var lastEarlyReference: UInt64 = 0
    /// `Coordinator.earlyReferenceCount` when an injection of the group last failed and dropped
    /// what the group made; 0: never. A prototype or weak singleton whose lookup began before
    /// that and saw an early reference may hold a dropped object (`GroupSettlement`).
    @exclusivity(unchecked) var lastDrop: UInt64 = 0
    /// An early reference the group handed out: when, and who may hold it.
    struct EarlyReference {
        let sequence: UInt64
        /// The resolution that received it, then the ones it ran for (nested in or continuing),
        /// outermost last: taken when it was handed out, as a finished continuation or nested
        /// lookup forgets its parent.
        let holders: [Resolution]
        /// The object handed out (its owner: the instance, or its box): when it is dropped, so
        /// is what its holders made since (`SingletonSlot.dropLocked(with:since:)`).
        let object: ObjectIdentifier
    }

    /// The early references the group handed out since it last published
    /// (`Coordinator.stampEarlyReference`): what a failed injection of the group drops may be
    /// held by their holders (`SingletonSlot.failInjecting`). Emptied when the group publishes:
    /// an early reference handed out before then is published by then.
    @exclusivity(unchecked) var earlyReferences: [EarlyReference] = []
    /// Tasks waiting for the group's injections to end (`GroupSettlement`); `nil` until one
    /// waits.
    @exclusivity(unchecked) var settleWaiters: [AsyncWaiter]?

    /// The group this one stands for after merges.
    @inline(__always)
    var root: PublicationGroup {
        var group = self
        while let next = group.forward { group = next }
        return group
    }

    /// Whether the group this one stands for is injecting nothing. Retains no group on the
    /// way (every singleton made asks).
    @inline(__always)
    var isIdle: Bool {
        guard forward != nil else { return injectors.isEmpty }
        return root.injectors.isEmpty
    }

    /// Removes the injection by `resolution`'s frame at `depth`.
    func removeInjector(_ resolution: Resolution, depth: Int) {
        if let position = injectors.lastIndex(where: { $0.resolution === resolution && $0.depth == depth }) {
            injectors.remove(at: position)
        }
    }

    /// Moves everything of `other` into this group.
    func absorb(_ other: PublicationGroup) {
        guard other !== self else { return }
        injectors += other.injectors
        pending += other.pending
        earlyReferences += other.earlyReferences
        if let waiters = other.settleWaiters { settleWaiters = (settleWaiters ?? []) + waiters }
        lastDrop = max(lastDrop, other.lastDrop)
        other.injectors = []
        other.pending = []
        other.earlyReferences = []
        other.settleWaiters = nil
        other.forward = self
        wasMerged.store(true, ordering: .relaxed)
        other.wasMerged.store(true, ordering: .relaxed)
    }

    /// The tasks waiting for the group to settle, to resume after the lock (they look again).
    /// Called with the lock held.
    func wakeSettleWaiters() -> [Resumption<Void>] {
        guard let waiters = settleWaiters else { return [] }
        settleWaiters = nil
        return waiters.compactMap { $0.wake() }
    }

    /// Publishes every singleton of the group. Called with the lock held; what to release, to
    /// resume and (for contexts closed meanwhile) to dispose is handed back for after it.
    ///
    /// When one of them belongs to a context that was closed meanwhile (made while it was
    /// closing: never handed out by the context, and disposed by the lookup that made it), none
    /// is published: the others may hold it (they were made in one group because early
    /// references tie them together), and a singleton of an open context published holding a
    /// disposed object would be handed out and kept. Each is dropped instead, and a lookup
    /// settling on the group (a prototype's) makes its object again; the lookups that wait for
    /// the others claim them again, and making them again meets the closed context. Returns
    /// whether the group was dropped so.
    @discardableResult
    func publishAll(_ garbage: inout [AnyObject], _ woken: inout [Resumption<Void>], late: inout [LateDisposal.Made]) -> Bool {
        let dropsAll = pending.contains { $0.context.isClosed }
        if dropsAll { lastDrop = Coordinator.earlyReferenceCount }
        for entry in pending {
            let context = entry.context, index = entry.index, slot = entry.slot
            if dropsAll {
                slot.dropLocked(into: &garbage, late: &late)
            } else if let unkept = slot.publishLocked(context.states[index].made!) {
                garbage.append(unkept.owner)
            }
            woken += slot.wakeWaiters()
            garbage.append(context)
        }
        pending.removeAll(keepingCapacity: true)
        earlyReferences.removeAll()
        return dropsAll
    }
}
