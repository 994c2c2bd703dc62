import Synchronization
import Trellis

extension Contender {
    /// Wall nanoseconds per operation, all threads' operations counted, of `threads` threads
    /// each running `loop(ops)`.
    static func wallNsPerOp(_ name: String, threads: Int, ops: Int, _ loop: @escaping @Sendable (Int) -> Void) -> Contender {
        wallNsPerOp(name, threads: threads, ops: ops) { _, ops in loop(ops) }
    }

    /// The same, for a loop that depends on its thread: `loop(threadIndex, ops)`.
    static func wallNsPerOp(_ name: String, threads: Int, ops: Int, perThread loop: @escaping @Sendable (Int, Int) -> Void) -> Contender {
        Contender(name: name, warmUp: { _ = wallNs(threads: threads) { t in loop(t, min(ops, 1000)) } }) {
            wallNs(threads: threads) { t in loop(t, ops) } / Double(threads * ops)
        }
    }
}

/// The physical floor for handing out one shared object (as /work/shared/bench's
/// `PublishedObject`): an acquire load of its published reference, then the retain and release
/// of the copy the caller gets, which is what a lock-free lookup of a made singleton cannot avoid.
/// The padding keeps the published reference off the cache line of the object's reference
/// count wherever malloc puts the two: were they on one line, the floor would pay for false
/// sharing the library need not.
final class PublishedObject: Sendable {
    private let before = (0, 0, 0, 0, 0, 0, 0, 0)
    private let published: Atomic<Unmanaged<Config>>
    private let after = (0, 0, 0, 0, 0, 0, 0, 0)

    init(_ object: Config) { published = Atomic(.passRetained(object)) }
    deinit { published.load(ordering: .relaxed).release() }

    var object: Config { published.load(ordering: .acquiring).takeUnretainedValue() }
}

/// `concurrent`: 2 threads looking up one made singleton, against the same loop on 1 thread.
///
/// `direct` hands out the object at hand; `arc-floor` and `arc-floor-1thread` hand it out
/// through `PublishedObject`, the least a shared lookup costs, so `project/arc-floor` says what
/// the library adds on top of the reference counting that two threads sharing one object pay
/// anyway; `baseline` takes the keyed baseline's mutex on every lookup.
func concurrentLookups(_ report: Report) {
    let ops = lookupOps
    let config = Config()
    let base = makeBaseline()
    let context = makeProjectContext()
    let _: Config = base.resolve("config")
    let shared = PublishedObject(Config())

    let direct: @Sendable (Int) -> Void = { n in for _ in 0..<n { blackHole(config) } }
    let floor: @Sendable (Int) -> Void = { n in for _ in 0..<n { blackHole(shared.object) } }
    let baseline: @Sendable (Int) -> Void = { n in for _ in 0..<n { let x: Config = base.resolve("config"); blackHole(x) } }
    let project: @Sendable (Int) -> Void = { n in for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) } }

    report.measure("concurrent", unit: "ns/op", rounds: 9, [
        .wallNsPerOp("direct", threads: 2, ops: ops, direct),
        .wallNsPerOp("arc-floor-1thread", threads: 1, ops: ops, floor),
        .wallNsPerOp("arc-floor", threads: 2, ops: ops, floor),
        .wallNsPerOp("baseline-1thread", threads: 1, ops: ops, baseline),
        .wallNsPerOp("baseline", threads: 2, ops: ops, baseline),
        .wallNsPerOp("project-1thread", threads: 1, ops: ops, project),
        .wallNsPerOp("project", threads: 2, ops: ops, project),
    ])
}

/// 64 bytes of fields (as /work/shared/bench's `Wide`): two instances never share a cache line,
/// so the reference counts of two threads' objects cannot false-share.
final class Wide: Sendable { let words = (0, 0, 0, 0, 0, 0, 0, 0) }

/// Two singletons, one per thread of `concurrent-distinct`.
struct TwoWide: ObjectFactory {
    var definitions: Definitions {
        createSingleton("left") { Wide() }
        createSingleton("right") { Wide() }
    }
}

/// `concurrent-distinct`: 2 threads, each looking up its own made singleton of the parent
/// through one child context (thread 0 `left`, thread 1 `right`), against thread 0's loop alone.
///
/// Nothing is shared but the contexts (the objects are `Wide`, the keys small strings stored
/// inline), so a lookup that only reads shared memory scales perfectly: `project/1thread` reads
/// 0.5 (wall time per lookup, both threads' lookups counted), and anything above it is the
/// library's own contention. `baseline` is the keyed baseline's child of a parent holding the
/// same two objects: each lookup takes the child's mutex, then the parent's.
func concurrentDistinctLookups(_ report: Report) {
    let ops = lookupOps
    let keys = ["left", "right"]

    let base = KeyedBaseline()
    base.singleton("left") { _ in Wide() }
    base.singleton("right") { _ in Wide() }
    let baseChild = makeBaselineChild(of: base)
    let child = try! ApplicationContext(EmptyChild(), parent: try! ApplicationContext(TwoWide()))
    for key in keys {
        let _: Wide = baseChild.resolve(key)
        blackHole(try! child.object(key, as: Wide.self))
    }

    let baseline: @Sendable (Int, Int) -> Void = { t, n in
        let key = keys[t]
        for _ in 0..<n { let x: Wide = baseChild.resolve(key); blackHole(x) }
    }
    let project: @Sendable (Int, Int) -> Void = { t, n in
        let key = keys[t]
        for _ in 0..<n { blackHole(try! child.object(key, as: Wide.self)) }
    }

    report.measure("concurrent-distinct", unit: "ns/op", rounds: 9, [
        .wallNsPerOp("baseline-1thread", threads: 1, ops: ops, perThread: baseline),
        .wallNsPerOp("baseline", threads: 2, ops: ops, perThread: baseline),
        .wallNsPerOp("project-1thread", threads: 1, ops: ops, perThread: project),
        .wallNsPerOp("project", threads: 2, ops: ops, perThread: project),
    ])
}
