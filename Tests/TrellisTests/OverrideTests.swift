import Synchronization
import Testing
import Trellis
import TrellisTestSupport

// MARK: Production and test-double factories

private protocol OverrideClock: Sendable {
    var reading: Int { get }
}

private struct OverrideSystemClock: OverrideClock {
    var reading: Int { -1 }
}

private struct OverrideFixedClock: OverrideClock {
    let reading: Int
}

private final class OverrideClassClock: OverrideClock {
    var reading: Int { 7 }
}

private final class OverrideMailer: Sendable {
    let clock: any OverrideClock
    init(clock: any OverrideClock) { self.clock = clock }
}

/// An eager singleton whose closure needs the clock: made while the context starts.
private final class OverrideStartupLog: Sendable {
    let clock: any OverrideClock
    init(clock: any OverrideClock) { self.clock = clock }
}

/// Gets the clock through a property instead of a closure.
private final class OverrideReport {
    @Inject var clock: any OverrideClock
}

private final class OverrideCounter: Sendable {
    private let count = Atomic(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

private struct OverrideProductionFactory: ObjectFactory {
    var contextName: String { "Production" }

    var definitions: Definitions {
        createSingleton("clock") { OverrideSystemClock() as any OverrideClock }
            .aliases("timeSource")
        createEagerSingleton("startupLog") { r in OverrideStartupLog(clock: try r.object("clock")) }
        createSingleton("mailer") { r in OverrideMailer(clock: try r.object("clock")) }
        createSingleton("report") { OverrideReport() }
    }
}

/// Replaces the clock with a fixed one; optionally adds an alias the production factory lacks.
private struct OverrideFixedClockDoubles: ObjectFactory {
    let reading: Int

    var definitions: Definitions {
        let reading = reading
        createSingleton("clock") { OverrideFixedClock(reading: reading) as any OverrideClock }
            .aliases("doubleOnlyAlias")
    }
}

/// Replaces the lazy clock singleton with a prototype.
private struct OverridePrototypeClockDoubles: ObjectFactory {
    var definitions: Definitions {
        createPrototype("clock") { OverrideClassClock() }
    }
}

/// Replaces the eager `startupLog` with a lazy singleton that counts how often it is made.
private struct OverrideLazyStartupDoubles: ObjectFactory {
    let counter: OverrideCounter

    var definitions: Definitions {
        let counter = counter
        createSingleton("startupLog") {
            counter.increment()
            return OverrideStartupLog(clock: OverrideFixedClock(reading: 3))
        }
    }
}

private struct OverrideMisspelledDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clok") { OverrideFixedClock(reading: 1) as any OverrideClock }
    }
}

private struct OverrideInvalidKeyDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock ") { OverrideFixedClock(reading: 1) as any OverrideClock }
    }
}

private struct OverrideByAliasDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("timeSource") { OverrideFixedClock(reading: 1) as any OverrideClock }
    }
}

/// A child factory using its parent's mailer.
private struct OverrideScreenFactory: ObjectFactory {
    var contextName: String { "Screen" }

    var definitions: Definitions {
        createSingleton("title") { "production title" }
        createPrototype("banner") { r in
            let title: String = try r.object("title")
            let mailer: OverrideMailer = try r.object("mailer")
            return "\(title) @ \(mailer.clock.reading)"
        }
    }
}

private struct OverrideScreenDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("title") { "test title" }
    }
}

/// `server` depends on `migrations` in production: made after it, disposed before it.
private struct OverrideOrderedFactory: ObjectFactory {
    let log: OverrideOrderLog
    var definitions: Definitions {
        createSingleton("migrations") { [log] in OverrideOrdered("migrations", log) }
        createSingleton("schema") { [log] in OverrideOrdered("schema", log) }
        createEagerSingleton("server") { [log] in OverrideOrdered("server", log) }.dependsOn("migrations")
    }
}

/// A double of `server` that depends on `schema` too.
private struct OverrideServerDouble: ObjectFactory {
    let log: OverrideOrderLog
    var definitions: Definitions {
        createEagerSingleton("server") { [log] in OverrideOrdered("double server", log) }.dependsOn("schema")
    }
}

private final class OverrideOrderLog: Sendable {
    private let entries = Guarded<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private final class OverrideOrdered: Disposable, Sendable {
    let name: String
    let log: OverrideOrderLog
    init(_ name: String, _ log: OverrideOrderLog) {
        self.name = name
        self.log = log
        log.add("made \(name)")
    }
    func dispose() { log.add("disposed \(name)") }
}

// MARK: Tests

@Suite struct OverrideTests {
    @Test func overrideReplacesTheObjectOfADirectLookup() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        let clock: any OverrideClock = try context.object("clock")
        #expect(clock.reading == 42)
    }

    @Test func overrideReachesOtherDefinitionsClosures() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        let mailer: OverrideMailer = try context.object("mailer")
        #expect(mailer.clock.reading == 42)
    }

    @Test func overrideReachesInjectedProperties() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        let report: OverrideReport = try context.object("report")
        #expect(report.clock.reading == 42)
    }

    @Test func eagerSingletonMadeAtStartGetsTheDouble() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        // Made while the context started, before any lookup of the test.
        #expect(context.startupReport.entries.map(\.key) == ["startupLog"])
        let log: OverrideStartupLog = try context.object("startupLog")
        #expect(log.clock.reading == 42)
    }

    @Test func overrideReplacesTheScopeToo() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverridePrototypeClockDoubles())
        #expect(context.configuration.definitions.first { $0.key == "clock" }?.scope == .prototype)
        #expect(diagnosticsTableRows(context).first { $0["key"] == "clock" }?["scope"] == "prototype")
        // A prototype: a new instance on every lookup, and the closure of `mailer` gets one too.
        let first: OverrideClassClock = try context.object("clock")
        let second: OverrideClassClock = try context.object("clock")
        #expect(first !== second)
        let mailer: OverrideMailer = try context.object("mailer")
        #expect(mailer.clock.reading == 7)
    }

    @Test func eagerDefinitionOverriddenByLazyOneIsNotMadeAtStart() throws {
        let counter = OverrideCounter()
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideLazyStartupDoubles(counter: counter))
        #expect(counter.value == 0)
        #expect(context.startupReport.entries.isEmpty)
        let log: OverrideStartupLog = try context.object("startupLog")
        #expect(log.clock.reading == 3)
        #expect(counter.value == 1)
    }

    @Test func overriddenDefinitionKeepsTheProductionNames() throws {
        let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        // Explicit alias of the production factory, and the generated default alias.
        #expect(try context.object("timeSource", as: (any OverrideClock).self).reading == 42)
        #expect(try context.object("CLOCK", as: (any OverrideClock).self).reading == 42)
        #expect(context.configuration.aliases(of: "clock") == ["timeSource", "CLOCK"])
        // The double's own alias is not a name of the context.
        #expect(!context.contains("doubleOnlyAlias"))
    }

    /// Docs/Testing.md, "`dependsOn` stays too".
    @Test func anOverriddenDefinitionKeepsTheProductionDependsOnAndAddsItsOwn() throws {
        let log = OverrideOrderLog()
        let context = try ApplicationContext(OverrideOrderedFactory(log: log), overriding: OverrideServerDouble(log: log))
        #expect(context.configuration.definitions.map(\.prerequisites) == [[], [], ["migrations", "schema"]])
        #expect(log.all == ["made migrations", "made schema", "made double server"])
        try context.close()
        #expect(log.all.suffix(3).first == "disposed double server")
    }

    @Test func overrideOfUnknownKeyIsRejected() {
        let error = #expect(throws: ContextError.self) {
            try ApplicationContext(OverrideProductionFactory(), overriding: OverrideMisspelledDoubles())
        }
        #expect(error == .overrideOfUnknownKey(key: "clok", context: "Production"))
    }

    @Test func overrideWithAnInvalidKeyIsRejectedAsAnInvalidKey() {
        // Docs/Testing.md: the double's key follows the rules of every key.
        let error = #expect(throws: ContextError.self) {
            try ApplicationContext(OverrideProductionFactory(), overriding: OverrideInvalidKeyDoubles())
        }
        #expect(error == .invalidKey(key: "clock ", context: "overrides of Production"))
    }

    @Test func overrideNamingAnAliasInsteadOfTheKeyIsRejected() {
        let error = #expect(throws: ContextError.self) {
            try ApplicationContext(OverrideProductionFactory(), overriding: OverrideByAliasDoubles())
        }
        #expect(error == .overrideOfUnknownKey(key: "timeSource", context: "Production", aliasOf: "clock"))
        #expect(error?.description == "Override of 'timeSource': in context 'Production' it is an alias of 'clock', and overrides name keys. Override 'clock' instead.")
    }

    @Test func overriddenChildStillFindsItsParentsObjects() throws {
        let app = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 5))
        let screen = try ApplicationContext(OverrideScreenFactory(), overriding: OverrideScreenDoubles(), parent: app)
        #expect(screen.parent === app)
        #expect(try screen.object("banner", as: String.self) == "test title @ 5")
        // The parent is not touched by its child's overrides.
        #expect(!app.contains("title"))
    }

    @Test func productionContextIsUnaffectedByAnOverriddenOneBuiltBefore() throws {
        _ = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: 42))
        let production = try ApplicationContext(OverrideProductionFactory())
        #expect(try production.object("clock", as: (any OverrideClock).self).reading == -1)
        #expect(try production.object("mailer", as: OverrideMailer.self).clock.reading == -1)
    }

    @Test func contextsBuiltInParallelEachSeeTheirOwnDouble() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, [Int]).self) { group in
            for value in 0..<8 {
                group.addTask {
                    let context = try ApplicationContext(OverrideProductionFactory(), overriding: OverrideFixedClockDoubles(reading: value))
                    let clock: any OverrideClock = try context.object("CLOCK")
                    let mailer: OverrideMailer = try context.object("mailer")
                    let report: OverrideReport = try context.object("report")
                    let log: OverrideStartupLog = try context.object("startupLog")
                    return (value, [clock.reading, mailer.clock.reading, report.clock.reading, log.clock.reading])
                }
            }
            group.addTask {
                let context = try ApplicationContext(OverrideProductionFactory())
                let clock: any OverrideClock = try context.object("clock")
                let mailer: OverrideMailer = try context.object("mailer")
                let report: OverrideReport = try context.object("report")
                let log: OverrideStartupLog = try context.object("startupLog")
                return (-1, [clock.reading, mailer.clock.reading, report.clock.reading, log.clock.reading])
            }
            var results: [Int: [Int]] = [:]
            for try await (value, readings) in group { results[value] = readings }
            return results
        }
        #expect(results.count == 9)
        for (value, readings) in results {
            #expect(readings == Array(repeating: value, count: 4), "context built with double \(value)")
        }
    }
}
