import Synchronization

/// The one lock of the creation slow path, shared by every context because a resolution may
/// cross contexts (a child's singleton depends on its parent's). Held only to change a
/// definition's creation phase or to wait, never while a user's closure, `didInject`, `dispose`
/// or `deinit` runs: what is released or called out is collected under the lock and handled
/// after it. A singleton nobody else asks for while it is made does without it (`SlotOwner`).
enum Coordinator {
    /// Lives as long as the process.
    static let lock = Lock.make()

    /// Incremented atomically, with `lock` held or by a lookup that owns its singleton without
    /// it; readable without it (`latestSequence`).
    private static let sequence = Atomic<UInt64>(0)

    /// A number that grows with every call. Called with `lock` held, or by a lookup that owns
    /// its singleton without it (`SlotOwner`: a publication, which takes its disposal order from
    /// it, or the start of an injection).
    static func nextSequence() -> UInt64 {
        sequence.add(1, ordering: .relaxed).newValue
    }

    /// The last number `nextSequence` gave, read without the lock: a mark that every later
    /// `nextSequence` exceeds (a stale read gives a smaller mark, never a larger one).
    static var latestSequence: UInt64 { sequence.load(ordering: .relaxed) }

    /// How many early references (objects not published yet) lookups have received, in every
    /// group of the process. Incremented with `lock` held; readable without it.
    private static let earlyReferences = Atomic<UInt64>(0)

    /// Stamps `group` as having handed out an early reference now
    /// (`PublicationGroup.lastEarlyReference`), notes it among the group's early references
    /// with `taker` and the resolutions it runs for, which receive what it does
    /// (`PublicationGroup.EarlyReference`), and counts it. Called with `lock` held.
    static func stampEarlyReference(_ group: PublicationGroup, takenBy taker: Resolution, of object: AnyObject) {
        let now = nextSequence()
        group.lastEarlyReference = now
        group.earlyReferences.append(.init(sequence: now, holders: taker.withAncestors, object: ObjectIdentifier(object)))
        earlyReferences.add(1, ordering: .releasing)
    }

    /// Where creation stands before a singleton's closure runs: compared after it, it tells
    /// whether the closure can have received an early reference (`publishIfNothingToInject`).
    static var mark: CreationMark {
        CreationMark(sequence: latestSequence, earlyReferences: earlyReferences.load(ordering: .acquiring))
    }

    /// How many early references lookups have received so far (`GroupSettlement`). Relaxed: a
    /// lookup whose group another lookup merged took part in that through the lock (it claimed
    /// or injected under it after the stamp), which orders the stamp before its read.
    static var earlyReferenceCount: UInt64 { earlyReferences.load(ordering: .relaxed) }

    /// Whether no lookup anywhere has received an early reference since `mark`: then neither has
    /// any lookup of the closure that began at `mark`. Read without the lock: the early
    /// references a closure receives are counted on its own thread, before it returns.
    static func noEarlyReference(since mark: CreationMark) -> Bool {
        earlyReferences.load(ordering: .acquiring) == mark.earlyReferences
    }

    /// The keys of the definitions waited for along a chain of waits from `target` (whose
    /// phase is `phase`) back to `asker`, if waiting would close a cycle; `nil` if waiting is
    /// safe. Called with `lock` held.
    ///
    /// The graph: a phase waits for the frames that own it (`CreationPhase.blockers`); a frame
    /// of resolution `r` at depth `d` waits for whatever `r` itself waits for, and for the
    /// continuations and nested lookups `r` spawned at depth `d` or deeper.
    static func cycle(through phase: CreationPhase, to asker: Resolution) -> [String]? {
        firstFrame(reachedFrom: phase, tracksKeys: true) { $0.resolution === asker }?.keys
    }

    /// A lookup on a cycle of waits from `phase` back to `asker` that waits for an object that
    /// exists — a singleton being injected or waiting for its group, or its own group's
    /// injections — and so may end its wait by taking it early, which it does once it looks again
    /// and finds waiting closes a cycle (`SingletonSlot.claim`, `GroupSettlement.settle`): the
    /// cycle is then no error. `nil` if there is no cycle, or no such wait on one. Called with
    /// `lock` held.
    static func waiterThatMayTakeEarly(onCycleThrough phase: CreationPhase, to asker: Resolution) -> Resolution? {
        let reached = walk(from: phase, starting: Resolution?.none, through: { waiter, resolution, waited in
            guard waiter == nil else { return waiter }
            switch waited {
            case .injecting(_, _, true), .deferred(_, true): return resolution
            default: return nil
            }
        }, where: { frame, waiter in frame.resolution === asker && waiter != nil })
        return reached?.path ?? nil
    }

    /// The first frame of the wait-for graph (see `cycle`) reached from `phase` that `matches`
    /// accepts, with the keys of the definitions waited on to reach it (`tracksKeys`; else
    /// none, and nothing allocated for them): what the end of `phase` waits for, directly or
    /// through other makings. Called with `lock` held.
    static func firstFrame(reachedFrom phase: CreationPhase, tracksKeys: Bool = false, where matches: (PublicationGroup.Injector) -> Bool) -> (frame: PublicationGroup.Injector, keys: [String])? {
        let reached = walk(from: phase, starting: [String](), through: { keys, resolution, _ in
            guard tracksKeys, let key = resolution.waitingFor?.key else { return keys }
            return keys + [key]
        }, where: { frame, _ in matches(frame) })
        return reached.map { ($0.frame, $0.path) }
    }

    /// The one walk of the wait-for graph: from the frames `phase` waits for, through what each
    /// frame's resolution waits for and the continuations and nested lookups it spawned at that
    /// depth or deeper, to the first frame `matches` accepts with what the walk noted on the way
    /// there (`extend`, given the path so far, the waiting resolution and the phase it waits
    /// for). Each resolution is expanded once per shallowest depth. Called with `lock` held.
    private static func walk<Path>(from phase: CreationPhase, starting start: Path, through extend: (Path, Resolution, CreationPhase) -> Path, where matches: (PublicationGroup.Injector, Path) -> Bool) -> (frame: PublicationGroup.Injector, path: Path)? {
        var visited: [ObjectIdentifier: Int] = [:]
        var work: [(PublicationGroup.Injector, Path)] = phase.blockers.map { ($0, start) }
        while let (frame, path) = work.popLast() {
            if matches(frame, path) { return (frame, path) }
            let resolution = frame.resolution
            let id = ObjectIdentifier(resolution)
            if let seen = visited[id], seen <= frame.depth { continue }
            visited[id] = frame.depth
            if let waited = resolution.waitingFor {
                let waitedPhase = waited.phase
                let reached = extend(path, resolution, waitedPhase)
                for blocker in waitedPhase.blockers { work.append((blocker, reached)) }
            }
            for child in resolution.children where child.attachDepth >= frame.depth {
                work.append((.init(resolution: child, depth: 0), path))
            }
        }
        return nil
    }
}
