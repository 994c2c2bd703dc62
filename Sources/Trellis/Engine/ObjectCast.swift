import Synchronization

/// Casts of a class instance to another type than its own (a protocol it adopts, a superclass,
/// `AnyObject`, an existential of them), learned once per class and type, then made without
/// the runtime.
///
/// The runtime's cast looks up the conformance in its cache on every call (about 900
/// instructions, more than making the object): what a prototype asked for as a protocol paid for
/// every object, and what a context made per request paid for each of its singletons injected
/// as a protocol. But such a value is the same for every instance of one class but for its
/// first word: the reference itself, as a class reference, a class-bound existential and an
/// existential's inline buffer hold it; the rest (the metadata, the witness tables) belongs to
/// the type. So the first cast of a pair is kept with its reference taken out (a `hollowCopy`),
/// and later ones copy it and put their object in. Kept only where that holds: the target is a
/// class or an existential, the value begins with the object, and the conformance is not
/// isolated to a global actor (that cast succeeds only on the actor). Anything else, an
/// optional say, or a cast that boxes the object (`any Error`), is cast every time.
///
/// Templates hold no object and no context: a type pair and bytes, kept for the process, like
/// the injection plans.
enum ObjectCast {
    private final class Template: Sendable {
        let source: ObjectIdentifier
        let target: ObjectIdentifier
        let byteCount: Int
        // Safe: written once in `init`, only read (copied from) after, and freed in deinit,
        // which only a template that lost the race to be kept reaches (nothing else saw it).
        nonisolated(unsafe) let bytes: ValueSlot

        init(source: ObjectIdentifier, target: ObjectIdentifier, byteCount: Int, bytes: ValueSlot) {
            self.source = source
            self.target = target
            self.byteCount = byteCount
            self.bytes = bytes
        }

        deinit {
            bytes.rawValue.deallocate()
        }
    }

    private struct Pair: Hashable {
        let source: ObjectIdentifier
        let target: ObjectIdentifier
    }

    private static let templates = Locked<[Pair: Template]>([:])

    // Safe: allocated once, never freed, and only ever accessed through the atomics it holds.
    nonisolated(unsafe) private static let recent: HeapBuffer<Atomic<Unretained<Template>?>> = {
        let slots = HeapBuffer<Atomic<Unretained<Template>?>>(count: 256)
        for slot in slots.indices { slots.initialize(slot, to: Atomic(nil)) }
        return slots
    }()

    @inline(__always)
    private static func slot(_ source: ObjectIdentifier, _ target: ObjectIdentifier) -> Int {
        // Two multiplicative hashes mixed, the top eight bits picked: nearby metadata addresses
        // (types declared together) land in different slots.
        let mixed = (UInt64(UInt(bitPattern: source)) &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(UInt(bitPattern: target)) &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 56)
    }

    /// What `cast` did.
    enum Outcome {
        /// `object` is not a `T` here; nothing was written.
        case failed
        /// Written, by a kept template or by a cast that left one: the conversion may be kept
        /// (its conformances are not isolated to a global actor).
        case keepable
        /// Written by the runtime's cast, which is not kept (see `ObjectCast`): whether the
        /// conversion may be kept is the caller's to find out (`mayKeep`).
        case cast
    }

    /// Writes `object` as a `T` into `result` (uninitialised memory for a `T`).
    static func cast<T>(_ object: AnyObject, to _: T.Type, into result: ValueSlot) -> Outcome {
        let source = ObjectIdentifier(type(of: object)), target = ObjectIdentifier(T.self)
        if let kept = recent[slot(source, target)].load(ordering: .acquiring),
           kept.with({ $0.source == source && $0.target == target }) {
            kept.with { result.initialize(from: $0.bytes, byteCount: $0.byteCount, holding: object) }
            return .keepable
        }
        return castFirst(object, to: T.self, into: result, Pair(source: source, target: target))
    }

    @inline(never)
    private static func castFirst<T>(_ object: AnyObject, to _: T.Type, into result: ValueSlot, _ pair: Pair) -> Outcome {
        if let kept = templates.withLock({ $0[pair] }) {
            recent[slot(pair.source, pair.target)].store(Unretained(kept), ordering: .releasing)
            result.initialize(from: kept.bytes, byteCount: kept.byteCount, holding: object)
            return .keepable
        }
        guard let typed = object as? T else { return .failed }
        result.initialize(as: T.self, to: typed)
        let byteCount = MemoryLayout<T>.size
        guard byteCount >= MemoryLayout<UInt>.size, T.self is AnyClass || Runtime.isExistential(T.self),
              result.holdsFirst(object), mayKeep(type(of: object), as: T.self) else { return .cast }
        let made = Template(source: pair.source, target: pair.target, byteCount: byteCount, bytes: result.hollowCopy(byteCount: byteCount))
        let kept = templates.withLock { templates -> Template in
            if let raced = templates[pair] { return raced }
            templates[pair] = made
            return made
        }
        recent[slot(pair.source, pair.target)].store(Unretained(kept), ordering: .releasing)
        return .keepable
    }

    /// Whether a conversion of a value of `type` to `T` may be kept: to a class, `AnyObject` or
    /// `Any` (no conformance), or through conformances known not to be isolated to a global
    /// actor (an optional, or a type the runtime query does not read, is converted every time).
    static func mayKeep<T>(_ type: Any.Type, as _: T.Type) -> Bool {
        let wanted = ObjectIdentifier(T.self)
        if T.self is AnyClass || wanted == ObjectIdentifier(AnyObject.self) || wanted == ObjectIdentifier(Any.self) { return true }
        return Runtime.conformance(of: type, to: T.self, readingIsolation: true) == .usableHere
    }
}
