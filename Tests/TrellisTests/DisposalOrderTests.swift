import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class LateCycleA: Disposable, @unchecked Sendable {
    // Unchecked: the @Inject storage is written once, by the context, before the object is shared.
    @Inject var b: LateCycleB
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("a") }
}

private final class LateCycleB: Disposable, @unchecked Sendable {
    // Unchecked: as `LateCycleA`.
    @Inject var a: LateCycleA
    @Inject(.lazy) var leaf: DisposableProbe
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("b") }
}

/// `a` and `b` refer to each other; `b` also needs `leaf`, made last (on its first read).
private struct LateDependencyCycleFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("a") { [log] in LateCycleA(log: log) }
        createSingleton("b") { [log] in LateCycleB(log: log) }
        createSingleton("leaf") { [log] in DisposableProbe("leaf", log: log) }
    }
}

/// `x`, made at start, then the cycle of `a` and `b`: nothing relates them.
private struct CycleAfterUnrelatedFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("x") { [log] in DisposableProbe("x", log: log) }
        createSingleton("a") { [log] in LateCycleA(log: log) }
        createSingleton("b") { [log] in LateCycleB(log: log) }
        createSingleton("leaf") { [log] in DisposableProbe("leaf", log: log) }
    }
}

private struct FirstAttemptFailed: Error {}

/// `b` reads `a` through a lazy property (b depends on a).
private final class ReadsALater: Disposable, @unchecked Sendable {
    // Unchecked: as `LateCycleA`.
    @Inject(.lazy) var a: DisposableProbe
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("b") }
}

/// `a`'s first making asks for `b`, then fails; the second does not ask for it.
private struct FailedFirstAttemptFactory: ObjectFactory {
    let log: DisposalLog
    let attempts = InjCounter()
    var definitions: Definitions {
        createSingleton("a") { [log, attempts] r in
            attempts.increment()
            if attempts.value == 1 {
                _ = try r.object("b", as: ReadsALater.self)
                throw FirstAttemptFailed()
            }
            return DisposableProbe("a", log: log)
        }
        createSingleton("b") { [log] in ReadsALater(log: log) }
    }
}

/// A chain `link0` → `link1` → … of `length` singletons, each made by the one before it.
private struct ChainFactory: ObjectFactory {
    let length: Int
    let log: DisposalLog
    var definitions: Definitions {
        for link in 0..<length {
            createSingleton("link\(link)") { [log, length] r in
                DisposableProbe("link\(link)", log: log, dependencies: link + 1 < length ? [try r.object("link\(link + 1)", as: DisposableProbe.self)] : [])
            }
        }
    }
}

/// The diamond a → b, a → c, b → d, c → d through creation closures.
private struct DiamondFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Diamond" }

    var definitions: Definitions {
        createSingleton("a") { [log] r in
            DisposableProbe("a", log: log, dependencies: [try r.object("b", as: DisposableProbe.self), try r.object("c", as: DisposableProbe.self)])
        }
        createSingleton("b") { [log] r in DisposableProbe("b", log: log, dependencies: [try r.object("d", as: DisposableProbe.self)]) }
        createSingleton("c") { [log] r in DisposableProbe("c", log: log, dependencies: [try r.object("d", as: DisposableProbe.self)]) }
        createSingleton("d") { [log] in DisposableProbe("d", log: log) }
    }
}

private final class PropertyA: Disposable, @unchecked Sendable {
    // Unchecked: the @Inject storage is written once, by the context, before the object is shared.
    @Inject var b: PropertyB
    @Inject var c: PropertyC
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("a") }
}

private final class PropertyB: Disposable, @unchecked Sendable {
    @Inject var d: PropertyD
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("b") }
}

private final class PropertyC: Disposable, @unchecked Sendable {
    @Inject var d: PropertyD
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("c") }
}

private final class PropertyD: Disposable, @unchecked Sendable {
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("d") }
}

/// The same diamond through `@Inject` properties: here each object exists before what it depends
/// on is made.
private struct PropertyDiamondFactory: ObjectFactory {
    let log: DisposalLog

    var definitions: Definitions {
        createSingleton("a") { [log] in PropertyA(log: log) }
        createSingleton("b") { [log] in PropertyB(log: log) }
        createSingleton("c") { [log] in PropertyC(log: log) }
        createSingleton("d") { [log] in PropertyD(log: log) }
    }
}

/// Singletons that depend on each other through prototypes: `service → handler → store` and
/// `report → page → section → store`. The prototypes are disposable too, and never disposed.
private struct PrototypeBetweenFactory: ObjectFactory {
    let log: DisposalLog

    var definitions: Definitions {
        createSingleton("service") { [log] r in DisposableProbe("service", log: log, dependencies: [try r.object("handler", as: DisposableProbe.self)]) }
        createPrototype("handler") { [log] r in DisposableProbe("handler", log: log, dependencies: [try r.object("store", as: DisposableProbe.self)]) }
        createSingleton("report") { [log] r in DisposableProbe("report", log: log, dependencies: [try r.object("page", as: DisposableProbe.self)]) }
        createPrototype("page") { [log] r in DisposableProbe("page", log: log, dependencies: [try r.object("section", as: DisposableProbe.self)]) }
        createPrototype("section") { [log] r in DisposableProbe("section", log: log, dependencies: [try r.object("store", as: DisposableProbe.self)]) }
        createSingleton("store") { [log] in DisposableProbe("store", log: log) }
    }
}

/// Independent singletons: two eager, three lazy.
private struct IndependentFactory: ObjectFactory {
    let log: DisposalLog

    var definitions: Definitions {
        createEagerSingleton("first") { [log] in DisposableProbe("first", log: log) }
        createEagerSingleton("second") { [log] in DisposableProbe("second", log: log) }
        createSingleton("x") { [log] in DisposableProbe("x", log: log) }
        createSingleton("y") { [log] in DisposableProbe("y", log: log) }
        createSingleton("z") { [log] in DisposableProbe("z", log: log) }
    }
}

private final class CycleA: Disposable, @unchecked Sendable {
    // Unchecked: the @Inject storage is written once, by the context, before the object is shared.
    @Inject var b: CycleB
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("a") }
}

private final class CycleB: Disposable, @unchecked Sendable {
    @Inject var a: CycleA
    @Inject var leaf: DisposableProbe
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("b") }
}

/// `a.b` is `b` and `b.a` is `a` (a property cycle); `user → a` through its closure, and
/// `b.leaf → leaf`.
private struct PropertyCycleFactory: ObjectFactory {
    let log: DisposalLog

    var definitions: Definitions {
        createSingleton("user") { [log] r in DisposableProbe("user", log: log, dependencies: [try r.object("a", as: CycleA.self)]) }
        createSingleton("a") { [log] in CycleA(log: log) }
        createSingleton("b") { [log] in CycleB(log: log) }
        createSingleton("leaf") { [log] in DisposableProbe("leaf", log: log) }
    }
}

// The example of Docs/Lifecycle.md ("Disposal order"), kept in step with the page.

private final class LifecycleConfig: Sendable {}

private struct LifecycleFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "AppFactory" }

    var definitions: Definitions {
        createEagerSingleton("config") { LifecycleConfig() }
        createEagerSingleton("database") { [log] r in DisposableProbe("database", log: log, dependencies: [try r.object("config", as: LifecycleConfig.self)]) }
        createSingleton("orders") { [log] r in DisposableProbe("orders", log: log, dependencies: [try r.object("database", as: DisposableProbe.self)]) }
        createSingleton("payments") { [log] r in DisposableProbe("payments", log: log, dependencies: [try r.object("database", as: DisposableProbe.self)]) }
        createSingleton("audit") { [log] in DisposableProbe("audit", log: log) }
        createPrototype("auditEntry") { r in DisposableProbeDependency(value: try r.object("audit", as: DisposableProbe.self)) }
        createSingleton("checkout") { [log] r in
            DisposableProbe("checkout", log: log, dependencies: [
                try r.object("orders", as: DisposableProbe.self),
                try r.object("payments", as: DisposableProbe.self),
                try r.object("auditEntry", as: DisposableProbeDependency.self),
            ])
        }
        createSingleton("metrics") { [log] in DisposableProbe("metrics", log: log) }
    }
}

/// Where `key` is in `keys`; fails the test when it is missing.
private func position(of key: String, in keys: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
    try #require(keys.firstIndex(of: key), "\(key) was not disposed: \(keys)", sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite("Close: disposal order")
struct DisposalOrderTests {
    /// Whatever was asked first, each of a → b, a → c, b → d, c → d is disposed before what it
    /// depends on.
    @Test(arguments: [["a"], ["d", "c", "b", "a"], ["b", "a"], ["c", "b", "a"]])
    func diamondThroughClosuresDisposesEachBeforeWhatItDependsOn(lookups: [String]) throws {
        let log = DisposalLog()
        let context = try ApplicationContext(DiamondFactory(log: log))
        for key in lookups { _ = try context.object(key, as: DisposableProbe.self) }
        try context.close()
        let order = log.keys
        #expect(order.sorted() == ["a", "b", "c", "d"], "each disposed exactly once: \(order)")
        let a = try position(of: "a", in: order), b = try position(of: "b", in: order)
        let c = try position(of: "c", in: order), d = try position(of: "d", in: order)
        #expect(a < b && a < c, "a depends on b and c: \(order)")
        #expect(b < d && c < d, "b and c depend on d: \(order)")
    }

    @Test(arguments: [["a"], ["d", "b", "c", "a"], ["c", "a"]])
    func diamondThroughPropertiesDisposesEachBeforeWhatItDependsOn(lookups: [String]) throws {
        let log = DisposalLog()
        let context = try ApplicationContext(PropertyDiamondFactory(log: log))
        for key in lookups { _ = try context.object(key, as: (any Disposable).self) }
        try context.close()
        let order = log.keys
        #expect(order.sorted() == ["a", "b", "c", "d"], "each disposed exactly once: \(order)")
        let a = try position(of: "a", in: order), b = try position(of: "b", in: order)
        let c = try position(of: "c", in: order), d = try position(of: "d", in: order)
        #expect(a < b && a < c, "a depends on b and c: \(order)")
        #expect(b < d && c < d, "b and c depend on d: \(order)")
    }

    @Test func singletonDependingOnAnotherThroughPrototypesIsDisposedFirst() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(PrototypeBetweenFactory(log: log))
        _ = try context.object("report", as: DisposableProbe.self)
        _ = try context.object("service", as: DisposableProbe.self)
        // A prototype made now, after the singletons: still never disposed.
        _ = try context.object("handler", as: DisposableProbe.self)
        try context.close()
        let order = log.keys
        #expect(order.sorted() == ["report", "service", "store"], "prototypes are never disposed: \(order)")
        #expect(try position(of: "service", in: order) < position(of: "store", in: order), "service → handler → store: \(order)")
        #expect(try position(of: "report", in: order) < position(of: "store", in: order), "report → page → section → store: \(order)")
    }

    /// Where no edge says anything: the latest made first (the order in which they were made,
    /// not declared).
    @Test func independentSingletonsAreDisposedInReverseCreationOrder() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(IndependentFactory(log: log))
        for key in ["z", "x", "y"] { _ = try context.object(key, as: DisposableProbe.self) }
        try context.close()
        #expect(log.keys == ["y", "x", "z", "second", "first"])
    }

    @Test func propertyCycleMembersAreEachDisposedOnceWithoutHanging() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(PropertyCycleFactory(log: log))
        _ = try context.object("user", as: DisposableProbe.self)
        let error = Guarded<ContextError?>(nil)
        let finished = ConcurrencyThreads.run(1) { _ in
            let thrown = thrownContextError { () throws(ContextError) in try context.close() }
            error.withLock { $0 = thrown }
        }
        try #require(finished, "close() of a property cycle did not return")
        #expect(error.value == nil)
        let order = log.keys
        #expect(order.sorted() == ["a", "b", "leaf", "user"], "each disposed exactly once: \(order)")
        // Outside the cycle the edges still hold: user before both, both before leaf's user b.
        #expect(try position(of: "user", in: order) < position(of: "a", in: order), "\(order)")
        #expect(try position(of: "user", in: order) < position(of: "b", in: order), "\(order)")
        #expect(try position(of: "b", in: order) < position(of: "leaf", in: order), "\(order)")
    }

    @Test(arguments: ["a", "b"])
    func aCycleIsBrokenOnlyWhereNothingOutsideItStillDependsOnIt(lookedUpFirst: String) throws {
        // Docs/Lifecycle.md: in a cycle the latest made goes first, and the edges into and out
        // of the cycle still hold: `leaf`, made after both, waits for the whole cycle (`b`
        // needs it, and `a` reaches it through `b`), whichever member finished last.
        let log = DisposalLog()
        let context = try ApplicationContext(LateDependencyCycleFactory(log: log))
        _ = try context.object(lookedUpFirst, as: Any.self)
        _ = try context.object("b", as: LateCycleB.self).leaf
        try context.close()
        let other = lookedUpFirst == "a" ? "b" : "a"
        #expect(log.keys == [lookedUpFirst, other, "leaf"], "the one finished last goes first; leaf only after the cycle")
    }

    @Test func aFailedMakingLeavesNoEdgeForTheDisposalOrder() throws {
        // Docs/Lifecycle.md: the order follows the edges recorded while the objects were made;
        // `a`'s failed first making asked for `b`, which its made object never depended on.
        let log = DisposalLog()
        let context = try ApplicationContext(FailedFirstAttemptFactory(log: log))
        #expect(throws: ContextError.self) { try context.object("a", as: DisposableProbe.self) }
        _ = try context.object("a", as: DisposableProbe.self)
        _ = try context.object("b", as: ReadsALater.self).a
        try context.close()
        #expect(log.keys == ["b", "a"], "b depends on a, not the other way round")
    }

    @Test func aCycleTakesItsPlaceAmongTheOthersByItsLatestMadeMember() throws {
        // Docs/Lifecycle.md: where the edges say nothing, the latest made first; `x` was made
        // before the cycle, so it goes after it.
        let log = DisposalLog()
        let context = try ApplicationContext(CycleAfterUnrelatedFactory(log: log))
        _ = try context.object("a", as: LateCycleA.self)
        try context.close()
        #expect(log.keys == ["a", "b", "x"])
    }

    @Test func aLongChainIsDisposedFromItsFirstLinkToItsLast() throws {
        // Ordered without recursion and without a pass over the rest for every singleton.
        let log = DisposalLog()
        let length = 3_000
        let context = try ApplicationContext(ChainFactory(length: length, log: log))
        _ = try context.object("link0", as: DisposableProbe.self)
        try context.close()
        #expect(log.keys == (0..<length).map { "link\($0)" })
    }

    @Test func propertyCycleAloneIsDisposedOnce() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(PropertyCycleFactory(log: log))
        _ = try context.object("b", as: CycleB.self)
        let finished = ConcurrencyThreads.run(1) { _ in try? context.close() }
        try #require(finished, "close() of a property cycle did not return")
        #expect(log.count(of: "a") == 1)
        #expect(log.count(of: "b") == 1)
        #expect(log.count(of: "leaf") == 1)
        #expect(log.count(of: "user") == 0, "never made")
    }

    /// Docs/Lifecycle.md, "Disposal order": the example's graph and the order the page shows.
    @Test func documentedExampleIsDisposedInTheOrderThePageShows() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(LifecycleFactory(log: log))
        _ = try app.object("checkout", as: DisposableProbe.self)
        _ = try app.object("metrics", as: DisposableProbe.self)
        // The graph the page draws: what the context recorded while making these objects (the
        // eager singletons' start-up durations aside, which differ from run to run).
        #expect(graphWithoutDurations(app.graph(.mermaid)) == """
            flowchart LR
              subgraph c0["AppFactory"]
                c0_0[["config"]]
                c0_1[["database"]]
                c0_2["orders"]
                c0_3["payments"]
                c0_4["audit"]
                c0_5("auditEntry")
                c0_6["checkout"]
                c0_7["metrics"]
              end
              c0_1 ==> c0_0
              c0_6 --> c0_2
              c0_2 --> c0_1
              c0_6 --> c0_3
              c0_3 --> c0_1
              c0_6 --> c0_5
              c0_5 --> c0_4

            """)
        try app.close()
        #expect(log.keys == ["metrics", "checkout", "audit", "payments", "orders", "database"])
    }
}

private final class LazyUser: Disposable, @unchecked Sendable {
    // Unchecked: the @Inject storage is written by the context before the object is shared; the
    // lazy property's first read is made thread-safe by the library.
    @Inject(.lazy) var store: DisposableProbe
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("user") }
}

/// `user.store` is a `.lazy` property: `store` is made when it is first read, after `user`.
private struct LazyPropertyFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("user") { [log] in LazyUser(log: log) }
        createSingleton("store") { [log] in DisposableProbe("store", log: log) }
    }
}

@Suite("Close: disposal order through lazy properties")
struct LazyPropertyDisposalOrderTests {
    /// A `.lazy` property is an injected dependency like any other: its owner may use it in its
    /// `dispose()`, so the owner goes first, although the object was made after it.
    @Test func ownerOfALazyPropertyIsDisposedBeforeWhatThePropertyMade() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(LazyPropertyFactory(log: log))
        let user = try context.object("user", as: LazyUser.self)
        #expect(user.store.key == "store")
        try context.close()
        #expect(log.keys == ["user", "store"])
    }
}

/// Not disposable: reaches `store` through a `.lazy` property, made when first read.
private final class LazyRelay: @unchecked Sendable {
    // Unchecked: as `LazyUser`'s.
    @Inject(.lazy) var store: DisposableProbe
}

/// `owner` (disposable) keeps `relay` (not disposable), whose lazy `store` is made last.
private struct RelayFactory: ObjectFactory {
    let log: DisposalLog
    var definitions: Definitions {
        createSingleton("owner") { [log] r in DisposableProbe("owner", log: log, dependencies: [try r.object("relay", as: LazyRelay.self)]) }
        createSingleton("relay") { LazyRelay() }
        createSingleton("store") { [log] in DisposableProbe("store", log: log) }
    }
}

@Suite("Close: disposal order through objects that dispose nothing")
struct RelayDisposalOrderTests {
    /// Objects that dispose nothing are left out of the order, not the edges through them:
    /// `owner` goes before `store`, which its `relay` made after it (Docs/Lifecycle.md).
    @Test func ownerIsDisposedBeforeWhatAnObjectItUsesMadeLater() throws {
        let log = DisposalLog()
        let context = try ApplicationContext(RelayFactory(log: log))
        let owner = try context.object("owner", as: DisposableProbe.self)
        #expect((owner.dependencies.first?.value as? LazyRelay)?.store.key == "store")
        try context.close()
        #expect(log.keys == ["owner", "store"])
    }
}
