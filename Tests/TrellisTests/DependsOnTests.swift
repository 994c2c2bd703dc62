import Testing
import Trellis
import TrellisTestSupport

// Docs/RunningAService.md ("Explicit order: dependsOn") and Docs/Lifecycle.md (disposal order).

private struct OrderFactory: ObjectFactory {
    let made: DisposalLog
    let disposed: DisposalLog

    var definitions: Definitions {
        createEagerSingleton("server") { [made, disposed] in
            made.record("server")
            return DisposableProbe("server", log: disposed)
        }.dependsOn("migrations", "metricsService").aliases("httpServer")
        createSingleton("migrations") { [made, disposed] in
            made.record("migrations")
            return DisposableProbe("migrations", log: disposed)
        }
        createSingleton("metrics") { [made, disposed] in
            made.record("metrics")
            return DisposableProbe("metrics", log: disposed)
        }.aliases("metricsService")
    }
}

@Test func dependsOnMakesTheNamedDefinitionsFirstByKeyOrAlias() throws {
    let made = DisposalLog(), disposed = DisposalLog()
    let app = try ApplicationContext(OrderFactory(made: made, disposed: disposed))
    #expect(made.keys == ["migrations", "metrics", "server"])
    #expect(app.contains("httpServer"))
}

@Test func dependsOnDisposesTheDependentFirstWithoutAReference() throws {
    let made = DisposalLog(), disposed = DisposalLog()
    let app = try ApplicationContext(OrderFactory(made: made, disposed: disposed))
    try app.close()
    #expect(disposed.keys.first == "server")
    #expect(Set(disposed.keys) == ["server", "migrations", "metrics"])
}

@Test func dependsOnIsAnEdgeOfTheGraph() throws {
    let made = DisposalLog(), disposed = DisposalLog()
    let app = try ApplicationContext(OrderFactory(made: made, disposed: disposed))
    let dot = app.graph(.dot)
    #expect(dot.contains("c0_0 -> c0_1"))
    #expect(dot.contains("c0_0 -> c0_2"))
}

private struct UnknownLazyFactory: ObjectFactory {
    let made: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("clock") { [made] in made.record("clock"); return 1 }
        createSingleton("report") { 2 }.dependsOn("missing")
    }
}

@Test func anUnknownDependsOnNameFailsTheStartBeforeAnythingIsMade() {
    let made = DisposalLog()
    let error = syncError { try ApplicationContext(UnknownLazyFactory(made: made)) }
    #expect(error == .noSuchObject(key: "missing", searched: ["UnknownLazyFactory"], path: ["report", "missing"]))
    #expect(made.keys.isEmpty)
}

@Test func anUnknownDependsOnNameFailsTheAsyncStartToo() async {
    let made = DisposalLog()
    let error = await asyncError { try await ApplicationContext(UnknownLazyFactory(made: made)) }
    #expect(error == .noSuchObject(key: "missing", searched: ["UnknownLazyFactory"], path: ["report", "missing"]))
    #expect(made.keys.isEmpty)
}

private struct CycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("first") { 0 }
        createSingleton("a") { 1 }.dependsOn("b")
        createPrototype("b") { 2 }.dependsOn("c")
        createSingleton("c") { 3 }.dependsOn("A")
    }
}

@Test func aCycleOfDependsOnNamesFailsTheStartWithItsPath() {
    let error = syncError { try ApplicationContext(CycleFactory()) }
    #expect(error == .circularDependency(path: ["a", "b", "c", "a"]))
}

private struct SelfNamingFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("config") { 0 }
        createSingleton("a") { 1 }.dependsOn("config", "A")
    }
}

@Test func aDefinitionNamingItselfInDependsOnFailsTheStart() {
    #expect(syncError { try ApplicationContext(SelfNamingFactory()) } == .circularDependency(path: ["a", "a"]))
}

/// `a` needs `b`, which needs `c`, which needs the parent's `config`: an order, not a cycle.
private struct ChainedDependsOnFactory: ObjectFactory {
    let made: DisposalLog
    var definitions: Definitions {
        createSingleton("a") { [made] in made.record("a"); return "a" }.dependsOn("b")
        createSingleton("b") { [made] in made.record("b"); return "b" }.dependsOn("c", "config")
        createSingleton("c") { [made] in made.record("c"); return "c" }.dependsOn("config")
        createSingleton("config") { [made] in made.record("config"); return "config" }
    }
}

@Test func aChainOfDependsOnNamesIsAnOrderNotACycle() throws {
    let made = DisposalLog()
    let context = try ApplicationContext(ChainedDependsOnFactory(made: made))
    _ = try context.object("a", as: String.self)
    #expect(made.keys == ["config", "c", "b", "a"])
}

private struct MixedCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("a") { 1 }.dependsOn("b")
        createSingleton("b") { r in try r.object("a", as: Int.self) + 1 }
    }
}

@Test func aCycleThroughAClosureAndDependsOnIsFoundAtTheLookup() throws {
    let app = try ApplicationContext(MixedCycleFactory())
    #expect(syncError { try app.object("a", as: Int.self) } == .circularDependency(path: ["a", "b", "a"]))
}

@Test func validateReportsUnknownDependsOnNamesAndCycles() {
    let report = ApplicationContext.validate(UnknownLazyFactory(made: DisposalLog()))
    #expect(report.problems.contains(.noSuchObject(key: "missing", searched: ["UnknownLazyFactory"], path: ["report", "missing"])))
    let cycles = ApplicationContext.validate(MixedCycleFactory())
    #expect(cycles.problems.contains(.circularDependency(path: ["a", "b", "a"])))
    let dependsOnCycle = ApplicationContext.validate(CycleFactory())
    #expect(dependsOnCycle.problems.contains(.circularDependency(path: ["a", "b", "c", "a"])), "\(dependsOnCycle)")
}

private struct ParentFactory: ObjectFactory {
    let made: DisposalLog
    var definitions: Definitions {
        createSingleton("database") { [made] in made.record("database"); return "db" }
    }
}

private struct ChildFactory: ObjectFactory {
    let made: DisposalLog
    var definitions: Definitions {
        createPrototype("request") { [made] in made.record("request"); return 1 }.dependsOn("DATABASE")
    }
}

@Test func dependsOnReachesTheParentAndWorksForPrototypes() throws {
    let made = DisposalLog()
    let parent = try ApplicationContext(ParentFactory(made: made))
    let child = try ApplicationContext(ChildFactory(made: made), parent: parent)
    #expect(made.keys.isEmpty)
    _ = try child.object("request", as: Int.self)
    _ = try child.object("request", as: Int.self)
    #expect(made.keys == ["database", "request", "request"])
}

private struct AsyncOrderFactory: ObjectFactory {
    let made: DisposalLog
    var definitions: Definitions {
        createEagerSingleton("server") { [made] () async in
            await Task.yield()
            made.record("server")
            return 1
        }.dependsOn("pool")
        createSingleton("pool") { [made] () async in
            await Task.yield()
            made.record("pool")
            return 2
        }
    }
}

@Test func anAsyncDefinitionAwaitsItsAsyncDependsOn() async throws {
    let made = DisposalLog()
    _ = try await ApplicationContext(AsyncOrderFactory(made: made))
    #expect(made.keys == ["pool", "server"])
}

private struct SyncOnAsyncFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("report") { 1 }.dependsOn("pool")
        createSingleton("pool") { () async in 2 }
    }
}

@Test func aSynchronousDefinitionDependingOnAnAsyncOneNeedsAwait() async throws {
    let app = try await ApplicationContext(SyncOnAsyncFactory())
    #expect(syncError { try Sync.object(app, "report", as: Int.self) } == .requiresAwait(key: "pool", path: ["report", "pool"]))
    // As a closure's own synchronous lookup: fine once the async definition is made.
    #expect(try await app.object("pool", as: Int.self) == 2)
    #expect(try Sync.object(app, "report", as: Int.self) == 1)
    let report = await ApplicationContext.validate(SyncOnAsyncFactory())
    #expect(report.problems.contains(.requiresAwait(key: "pool", path: ["report", "pool"])))
}

private struct ContendedFactory: ObjectFactory {
    let counter: ConcurrencyCounter
    var definitions: Definitions {
        createPrototype("worker") { 1 }.dependsOn("shared")
        createSingleton("shared") { [counter] in counter.increment(); return 2 }
    }
}

@Test func aDependsOnSingletonIsMadeOnceUnderContention() throws {
    let counter = ConcurrencyCounter()
    let app = try ApplicationContext(ContendedFactory(counter: counter))
    let failures = ConcurrencyCounter()
    let barrier = ConcurrencyBarrier(parties: 8)
    #expect(ConcurrencyThreads.run(8) { _ in
        _ = barrier.arriveAndWait()
        for _ in 0..<50 where (try? app.object("worker", as: Int.self)) != 1 { failures.increment() }
    })
    #expect(counter.value == 1)
    #expect(failures.value == 0)
}

private struct InspectedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("a") { 1 }.aliases("x").dependsOn("b", "c").aliases("y").dependsOn("d")
        createSingleton("b") { 2 }
        createSingleton("c") { 3 }
        createSingleton("d") { 4 }
    }
}

@Test func aliasesAndDependsOnChainInAnyOrderAndStayInspectable() throws {
    let configurator = try ConfiguratorFromFactory(InspectedFactory())
    let a = try #require(configurator.definitions.first)
    #expect(a.explicitAliases == ["x", "y"])
    #expect(a.prerequisites == ["b", "c", "d"])
    #expect(configurator.definitions.dropFirst().allSatisfy { $0.prerequisites.isEmpty })
    #expect(configurator.aliases(of: "a").prefix(2) == ["x", "y"])
    let app = try ApplicationContext(InspectedFactory())
    #expect(try app.object("y", as: Int.self) == 1)
}
