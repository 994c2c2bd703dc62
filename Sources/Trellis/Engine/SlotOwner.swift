#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is making a singleton, in the one word of its record a lookup changes without the lock
/// (`DefinitionRecord.owner`): how a singleton nobody else asks for meanwhile is claimed and
/// published without `Coordinator.lock`.
///
/// A synchronous lookup that finds the singleton unmade and the word `free` writes its own
/// resolution and frame depth there with one compare-and-exchange, runs the closure, and, when
/// the object has nothing to inject, publishes it through the `publishing` window and frees the
/// word, all without the lock. Anyone who needs the slot's phase under the lock (a second
/// lookup that would wait, the owner's own later steps) first turns such an owner into a locked
/// one (`SingletonSlot.settleLocked`): `locked`, and the phase `making(owner, depth)` read back
/// from the word, as if it had claimed the slot under the lock — or, when the owner is injecting
/// the object (`injectingFlag`), `injecting(owner, depth)` with the owner's frame registered in its
/// publication group, as `beginInjecting` under the lock would have left it. From then on the owner cannot
/// finish without the lock, and the wait-for graph sees it. Docs/DESIGN.md, "Claimed without the
/// lock", says why each step is safe.
///
/// A singleton's state is this word, its phase (`CreationPhase`, under the lock) and its record's
/// `published` value. The combinations that occur:
///
/// | word | phase | published | the singleton is |
/// | --- | --- | --- | --- |
/// | `free` | `idle` | `nil` | not made: claimable without the lock (the word becomes an owner's) or under it (`locked`) |
/// | `free` | `idle` | set | made and published |
/// | an owner's word | `idle`, not read | `nil` | being made by a lock-free owner, its closure running |
/// | an owner's word, `injectingFlag` | `idle`, not read | `nil` | made, being injected by a lock-free owner |
/// | `publishing` | `idle`, not read | being set | being published by a lock-free owner: lock holders wait for the word |
/// | `locked` | `making`, `injecting` or `deferred` | `nil` | being made under the lock: the phase says by whom |
///
/// So `idle` alone never means "free": whoever holds the lock calls `SingletonSlot.settleLocked`
/// first, which turns a lock-free owner's word into `locked` and its phase, before reading the
/// phase. The word goes back to `free` only with the phase `idle`: on publication, abandonment
/// or a drop (`becomeIdleLocked`, or the owner's own exchange).
enum SlotOwner {
    /// Nobody is making the singleton (not made yet, or published), and the phase is `idle`:
    /// the slot may be claimed without the lock.
    static let free: UInt = 0
    /// The slot's phase, under the lock, says where its making stands.
    static let locked: UInt = 1
    /// A lock-free owner is storing the made singleton and its published value: published in a
    /// few instructions, which need no lock, so whoever holds the lock waits for the word to
    /// change rather than read the slot meanwhile.
    static let publishing: UInt = 2

    /// Set in a lock-free owner's word once its object is made and being injected (`injecting`
    /// rather than `making`): the lowest bit of the address part, always zero in an owner's word
    /// (a resolution is aligned to 16 bytes).
    static let injectingFlag: UInt = 1 << 16

    /// The word of `resolution` making the singleton at frame `depth`: its address in the upper
    /// 48 bits, the depth in the lower 16. `nil` when either does not fit (a 32-bit platform, an
    /// address above 2^48, a resolution 65,536 frames deep): that lookup takes the lock.
    @inline(__always)
    static func word(_ resolution: Resolution, depth: Int) -> UInt? {
        let address = Unretained(resolution).address
        guard UInt.bitWidth == 64, address >> 48 == 0, depth >= 0, depth < 1 << 16 else { return nil }
        return address << 16 | UInt(depth)
    }

    /// The resolution and depth a lock-free owner's word names. The resolution is alive while
    /// the word names it: its lookup keeps it until the slot's making ends, which changes the
    /// word first.
    static func owner(in word: UInt) -> (resolution: Unretained<Resolution>, depth: Int) {
        (Unretained(address: (word & ~injectingFlag) >> 16), Int(word & 0xFFFF))
    }

    /// Lets a lock-free owner in its `publishing` window run: the window takes no lock and waits
    /// for nothing, so it ends, unless its thread was preempted on this thread's core.
    static func letPublicationFinish() {
        sched_yield()
    }
}
