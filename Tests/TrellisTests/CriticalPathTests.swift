import Testing
import Trellis
import TrellisTestSupport

// Docs/Diagnostics.md and Docs/RunningAService.md ("The start's critical path").

private struct ServerFactory: ObjectFactory {
    /// Opened once `metrics` is made, so `server` is the eager singleton that ends last.
    let metricsMade = AsyncGate()

    var definitions: Definitions {
        createSingleton("config") { () async in
            await Task.yield()
            return "config"
        }
        createSingleton("pool") { r in "pool of " + (try await r.object("config", as: String.self)) }
        createEagerSingleton("metrics") { [metricsMade] () async in
            defer { metricsMade.open() }
            return "metrics"
        }
        createEagerSingleton("server") { [metricsMade] r in
            let pool: String = try await r.object("pool")
            await metricsMade.wait()
            return "server on " + pool
        }
    }
}

@Test func theCriticalPathIsTheChainOfWaitsEndingAtTheLastEagerSingleton() async throws {
    let app = try await ApplicationContext(ServerFactory())
    let report = app.startupReport
    #expect(report.criticalPath == ["config", "pool", "server"])
    let server = try #require(report.entries.first { $0.key == "server" })
    let metrics = try #require(report.entries.first { $0.key == "metrics" })
    #expect(server.waited > .zero && server.waited <= server.duration)
    #expect(metrics.waited == .zero)
}

/// `prepare` pulls in `schema` and opens the gate once it has it; `server` waits at the gate, so
/// it asks for `schema` (by its closure, or its object's `@Inject` property) only once it is made.
private struct LateAskFactory: ObjectFactory {
    let throughProperty: Bool
    let schemaMade = AsyncGate()

    var definitions: Definitions {
        createSingleton("schema") { () async in
            await Task.yield()
            return "schema"
        }
        createEagerSingleton("prepare") { [schemaMade] r in
            let schema: String = try await r.object("schema")
            schemaMade.open()
            return "prepared " + schema
        }
        createEagerSingleton("server") { [schemaMade, throughProperty] r in
            await schemaMade.wait()
            if !throughProperty { _ = try await r.object("schema", as: String.self) }
            return Server()
        }
    }
}

private final class Server: @unchecked Sendable {
    // Safe: injected by its context before anyone else sees it.
    @Inject var schema: String
}

/// `report` makes the prototype `page` twice; each making notes how long its closure ran.
private struct TwicePrototypeFactory: ObjectFactory {
    let spans = Guarded<[Duration]>([])

    var definitions: Definitions {
        createPrototype("page") { [spans] () -> String in
            let clock = ContinuousClock(), began = clock.now
            // Work that takes measurable time, without a sleep.
            var sum = 0
            for value in 0..<200_000 { sum &+= value &* 31 }
            spans.withLock { $0.append(clock.now - began) }
            return "page \(sum)"
        }
        createEagerSingleton("report") { r in
            (try r.object("page", as: String.self)) + (try r.object("page", as: String.self))
        }
    }
}

private struct SequentialFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { "config" }
        createSingleton("pool") { r in "pool of " + (try r.object("config", as: String.self)) }
        createEagerSingleton("migrations") { "migrated" }
        createEagerSingleton("server") { "server" }.dependsOn("pool")
    }
}

@Test(arguments: [false, true])
func aDependencyMadeBeforeItWasAskedForWasNotWaitedForNorIsItOnTheCriticalPath(throughProperty: Bool) async throws {
    for _ in 0..<20 {
        let report = try await ApplicationContext(LateAskFactory(throughProperty: throughProperty)).startupReport
        let server = try #require(report.entries.first { $0.key == "server" })
        #expect(server.waited == .zero)
        // Whichever eager singleton ends last, the chain of waits that led to it.
        let last = try #require(report.entries.max { $0.end < $1.end })
        #expect(report.criticalPath == (last.key == "server" ? ["server"] : ["schema", "prepare"]), "\(report)")
    }
}

@Test func everyMakingOfAPrototypeAnEntryAskedForCountsAsWaited() throws {
    // Docs/RunningAService.md: `waited` is the time spent on what it depends on, each making.
    let factory = TwicePrototypeFactory()
    let report = try ApplicationContext(factory).startupReport
    let entry = try #require(report.entries.first { $0.key == "report" })
    let spans = factory.spans.value
    try #require(spans.count == 2)
    #expect(entry.waited >= spans[0] + spans[1], "\(report), closures ran \(spans)")
    #expect(entry.waited <= entry.duration)
}

@Test func aSynchronousStartsCriticalPathFollowsDependsOnAndEarlierEagerSingletons() throws {
    let app = try ApplicationContext(SequentialFactory())
    let report = app.startupReport
    // `server` waited for `pool` (its `dependsOn`, made within its making), which the start made
    // after `migrations`, made after `config`: one after another, every one of them set the
    // start's duration (`pool` depends on `config`, made long before it).
    #expect(report.criticalPath == ["config", "migrations", "pool", "server"])
    #expect(report.entries.allSatisfy { $0.waited >= .zero && $0.waited <= $0.duration })
}

/// Two eager singletons that depend on nothing.
private struct TwoInARowFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("slow") { "slow" }
        createEagerSingleton("fast") { "fast" }
    }
}

@Test func aSynchronousStartsEagerSingletonsAreAllOnItsCriticalPath() throws {
    // Docs/RunningAService.md: the chain of waits that set the start's duration. A synchronous
    // start makes its eager singletons one after another: speeding up any of them shortens it.
    let report = try ApplicationContext(TwoInARowFactory()).startupReport
    #expect(report.criticalPath == ["slow", "fast"], "\(report)")
}

@Test func theReportTableMarksTheCriticalPath() throws {
    let report = try ApplicationContext(SequentialFactory()).startupReport
    let rows = diagnosticsTableRows(String(describing: report))
    #expect(rows.map { $0["eager singleton"] } == ["config", "migrations", "server", "total"])
    #expect(rows.map { $0["critical path"] } == ["*", "*", "*", "config → migrations → pool → server"])
    for row in rows.dropLast() {
        let waited = try #require(row["waited ms"])
        #expect(waited.split(separator: ".").count == 2, "\(waited)")
    }
}

@Test func theGraphOfAStartedContextDrawsTheCriticalPathBoldWithDurations() throws {
    let app = try ApplicationContext(SequentialFactory())
    let dot = app.graph(.dot)
    // server (3) → pool (1): bold; nothing else is (pool → config is an edge, but `config` was
    // made long before `pool`: `migrations` came between, joined by no edge).
    #expect(dot.contains("c0_3 -> c0_1 [style=bold, penwidth=2.5];"))
    #expect(dot.contains("c0_1 -> c0_0;"))
    #expect(dot.components(separatedBy: "style=bold, penwidth").count == 2)
    #expect(dot.contains("c0_0 [label=\"config (") && dot.contains(" ms)\", shape=box, style=\"bold,filled\""))
    #expect(dot.contains("c0_1 [label=\"pool\", shape=box]"))
    let mermaid = app.graph(.mermaid)
    #expect(mermaid.contains("c0_3 ==> c0_1"))
    #expect(mermaid.contains("c0_1 --> c0_0"))
    #expect(mermaid.contains("c0_2[[\"migrations ("))
}

private struct RequestFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("handler") { r in "handler with " + (try r.object("pool", as: String.self)) }
    }
}

private struct AppFactory: ObjectFactory {
    var contextName: String { "App" }
    var definitions: Definitions {
        createSingleton("pool") { "pool" }
    }
}

@Test func aParentsDefinitionOnTheCriticalPathIsNamedWithItsContext() throws {
    let app = try ApplicationContext(AppFactory())
    let request = try ApplicationContext(RequestFactory(), parent: app)
    #expect(request.startupReport.criticalPath == ["App.pool", "handler"])
    #expect(request.graph(.dot).contains("c0_0 -> c1_0 [style=bold, penwidth=2.5];"))
}

/// An async eager singleton and a synchronous one that depends on nothing: the async start makes
/// the synchronous one once its concurrent phase has ended.
private struct PhasedFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("slow") { () async in
            await Task.yield()
            return "slow"
        }
        createEagerSingleton("fast") { "fast" }
    }
}

@Test func aSynchronousEagerSingletonOfAnAsyncStartWaitedForTheConcurrentPhase() async throws {
    // Docs/RunningAService.md: the chain of waits that set the start's duration. The synchronous
    // eager singleton began when the async one ended, though no edge joins them.
    let report = try await ApplicationContext(PhasedFactory()).startupReport
    #expect(report.criticalPath == ["slow", "fast"], "\(report)")
}

/// As `PhasedFactory`, with the synchronous eager singleton depending on an async one that ended
/// long before the concurrent phase did.
private struct PhasedDependencyFactory: ObjectFactory {
    let fastMade = AsyncGate()
    var definitions: Definitions {
        createEagerSingleton("slow") { [fastMade] () async in
            await fastMade.wait()
            await Task.yield()
            return "slow"
        }
        createEagerSingleton("fastAsync") { [fastMade] () async in
            defer { fastMade.open() }
            return "fast"
        }
        createEagerSingleton("late") { r in "late " + (try r.object("fastAsync", as: String.self)) }
    }
}

@Test func aDependencyThatEndedBeforeTheConcurrentPhaseDidIsNotWhatHeldItUp() async throws {
    let report = try await ApplicationContext(PhasedDependencyFactory()).startupReport
    #expect(report.criticalPath == ["slow", "late"], "\(report)")
}

@Test func aContextWithoutEagerSingletonsHasNoCriticalPath() throws {
    #expect(try ApplicationContext(AppFactory()).startupReport.criticalPath.isEmpty)
}
