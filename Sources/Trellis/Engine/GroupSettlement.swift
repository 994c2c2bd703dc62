/// The end of a lookup called from user code whose object is not a published singleton (a
/// prototype, a weak singleton): when a property cycle with another lookup merged their
/// publication groups, what it made may hold an object of the group that other lookup is still
/// injecting, so it waits for the group's injections to end before handing its object out, as a
/// singleton's lookup waits for its publication (`SingletonSlot.waitsForItsGroup`).
enum GroupSettlement {
    /// The mark a lookup takes as it begins making its object: the count of early references
    /// handed out so far.
    @inline(__always)
    static var mark: UInt64 { Coordinator.earlyReferenceCount }

    /// Whether the lookup `resolution` runs, which took `mark` and is about to return, must
    /// first look at its group: an early reference was handed out somewhere since (the only way
    /// its group can have been merged with another's), and it was called from user code.
    @inline(__always)
    static func mustSettle(_ resolution: Resolution, since mark: UInt64) -> Bool {
        Coordinator.earlyReferenceCount != mark && resolution.depth == 0 && resolution.isCalledFromUserCode
    }

    /// What a blocking lookup does with its object once it looked at its group (`settle`).
    enum Outcome {
        /// Hands it out: the group injects nothing, or waiting would close a cycle.
        case keep
        /// Makes it again: what it may hold was dropped.
        case makeAgain
        /// Throws `requiresAwait`: the group waits for work that has suspended (or for the main
        /// actor), which a blocking caller must not wait for, and its object may hold what that
        /// work has not finished, or will drop.
        case refuse
    }

    /// Waits, blocking, until the group of `resolution` injects nothing; stops at once where
    /// waiting would close a cycle (a nested lookup whose outer lookup the group waits for:
    /// `keep`) or would block a caller that must not block (`refuse`, as `SingletonSlot.claim`
    /// refuses such a wait); `makeAgain` if an injection of its group failed since the lookup
    /// took `mark` and dropped what the group made, which the object may hold (a singleton's
    /// lookup makes it again the same way, `SingletonSlot.publishedWithItsGroup`).
    ///
    /// A wait of the claim loops (`WaitTarget.acquireBlocking`), on the group: seen by the
    /// wait-for graph, so that a lookup whose wait would close a cycle through this one wakes it
    /// rather than fail.
    @inline(never)
    static func settle(_ resolution: Resolution, since mark: UInt64) -> Outcome {
        let settled = try? WaitTarget.group(resolution.group.root).acquireBlocking(resolution) { () -> SlotClaim<Outcome> in
            guard let phase = unsettled(resolution), Coordinator.cycle(through: phase, to: resolution) == nil else {
                return .made(wasDropped(resolution, since: mark) ? .makeAgain : .keep)
            }
            return phase.mayBeWaitedFor(synchronously: true) ? .wait : .made(.refuse)
        }
        // The claim above never claims nor fails.
        return settled ?? .keep
    }

    /// `settle` for an awaited lookup, waiting by suspending (`WaitTarget.acquireSuspending`):
    /// whether it must make its object again. Where waiting would close a cycle, or the group
    /// waits for what an awaited lookup must not wait for, it keeps its object; so does a task
    /// cancelled while it waits.
    @inline(never)
    static func settle(_ resolution: Resolution, since mark: UInt64) async -> Bool {
        do throws(ContextError) {
            let settled = try await WaitTarget.group(resolution.group.root).acquireSuspending(resolution) { () -> SlotClaim<Bool> in
                guard let phase = unsettled(resolution), Coordinator.cycle(through: phase, to: resolution) == nil,
                      phase.mayBeWaitedFor(synchronously: false) else {
                    return .made(wasDropped(resolution, since: mark))
                }
                return .wait
            }
            return settled ?? false
        } catch {
            // Cancelled while it waited: it hands its object out as it is.
            return false
        }
    }

    /// Whether an injection of the group of `resolution` failed, dropping what the group made,
    /// after an early reference was handed out since `mark`: only then can the lookup's object
    /// hold a dropped one. Called with the lock held.
    private static func wasDropped(_ resolution: Resolution, since mark: UInt64) -> Bool {
        resolution.group.root.lastDrop > mark
    }

    /// The group's state as a phase the wait-for graph reads (its injectors block it), or `nil`
    /// when it injects nothing. Called with the lock held.
    private static func unsettled(_ resolution: Resolution) -> CreationPhase? {
        let phase = WaitTarget.group(resolution.group.root).phase
        if case .idle = phase { return nil }
        return phase
    }
}
