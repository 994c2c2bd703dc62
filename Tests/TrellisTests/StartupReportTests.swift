import Testing
import Trellis

private final class StartupSettings: Sendable {}
private final class StartupPool: Sendable {}
private final class StartupDatabase: Sendable {
    init(pool: StartupPool) {}
}
private final class StartupRepository: Sendable {
    init(database: StartupDatabase, settings: StartupSettings) {}
}
private struct StartupRequest: Sendable {}
private final class StartupServer: Sendable {
    init(repository: StartupRepository, request: StartupRequest) {}
}

private struct StartupFactory: ObjectFactory {
    var contextName: String { "Startup" }

    var definitions: Definitions {
        createEagerSingleton("settings") { StartupSettings() }
        createSingleton("pool") { StartupPool() }
        createSingleton("database") { r in StartupDatabase(pool: try r.object("pool")) }
        createEagerSingleton("repository") { r in
            StartupRepository(database: try r.object("database"), settings: try r.object("settings"))
        }
        createPrototype("request") { StartupRequest() }
        createEagerSingleton("server") { r in
            StartupServer(repository: try r.object("repository"), request: try r.object("request"))
        }
        createSingleton("unused") { StartupPool() }
    }
}

private final class StartupScreen: Sendable {
    init(pool: StartupPool) {}
}

private struct StartupScreenFactory: ObjectFactory {
    var contextName: String { "Screen" }

    var definitions: Definitions {
        createEagerSingleton("screen") { r in StartupScreen(pool: try r.object("pool")) }
    }
}

private struct StartupLazyOnlyFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("pool") { StartupPool() }
    }
}

@Suite struct StartupReportTests {
    @Test func eagerSingletonsAreListedInTheOrderMade() throws {
        let context = try ApplicationContext(StartupFactory())
        #expect(context.startupReport.entries.map(\.key) == ["settings", "repository", "server"])
    }

    @Test func eachEntryListsWhatItPulledInInTheOrderFinished() throws {
        let context = try ApplicationContext(StartupFactory())
        let entries = context.startupReport.entries
        try #require(entries.count == 3)
        #expect(entries[0].pulledIn == [])
        // Lazy singletons made for it, innermost first; the already made eager `settings` is not pulled in.
        #expect(entries[1].pulledIn == ["Startup.pool", "Startup.database"])
        // Prototypes made for it count too; the already made `repository` does not.
        #expect(entries[2].pulledIn == ["Startup.request"])
    }

    @Test func pulledInObjectsOfAParentAreQualifiedWithItsName() throws {
        let app = try ApplicationContext(StartupLazyOnlyFactory())
        let screen = try ApplicationContext(StartupScreenFactory(), parent: app)
        #expect(screen.startupReport.entries.map(\.key) == ["screen"])
        #expect(screen.startupReport.entries.first?.pulledIn == ["StartupLazyOnlyFactory.pool"])
        #expect(app.startupReport.entries.isEmpty)
    }

    @Test func totalRunsFromTheStartToTheLastEndAndCoversEveryDuration() throws {
        let report = try ApplicationContext(StartupFactory()).startupReport
        #expect(report.entries.allSatisfy { $0.duration >= .zero && $0.start >= .zero })
        #expect(report.total == report.entries.map(\.end).max())
        // A synchronous start makes one eager singleton after the other.
        #expect(zip(report.entries, report.entries.dropFirst()).allSatisfy { $0.end <= $1.start })
        #expect(report.total >= report.entries.reduce(.zero) { $0 + $1.duration })
    }

    @Test func contextWithoutEagerSingletonsHasAnEmptyReport() throws {
        let context = try ApplicationContext(StartupLazyOnlyFactory())
        #expect(context.startupReport.entries.isEmpty)
        #expect(context.startupReport.total == .zero)
    }

    @Test func lookupsAfterStartDoNotChangeTheReport() throws {
        let context = try ApplicationContext(StartupFactory())
        _ = try context.object("unused", as: StartupPool.self)
        _ = try context.object("request", as: StartupRequest.self)
        #expect(context.startupReport.entries.map(\.key) == ["settings", "repository", "server"])
        #expect(context.startupReport.entries.flatMap(\.pulledIn) == ["Startup.pool", "Startup.database", "Startup.request"])
    }

    @Test func descriptionIsATableOfKeysTimesAndWhatWasPulledIn() throws {
        let report = try ApplicationContext(StartupFactory()).startupReport
        let rows = diagnosticsTableRows(String(describing: report))
        #expect(String(describing: report).hasPrefix("eager singleton"))
        #expect(rows.map { $0["eager singleton"] } == ["settings", "repository", "server", "total"])
        #expect(rows.map { $0["pulled in"] } == ["", "Startup.pool, Startup.database", "Startup.request", ""])
        // Milliseconds with three decimals.
        for row in rows {
            let ms = try #require(row["ms"])
            let parts = ms.split(separator: ".")
            #expect(parts.count == 2 && parts[1].count == 3 && parts.allSatisfy { $0.allSatisfy(\.isNumber) }, "\(ms)")
        }
    }
}
