import Synchronization
import Testing
import Trellis

// MARK: A healthy factory

private final class ValidateClock: Sendable {}

private final class ValidateMailer: Sendable {
    let clock: ValidateClock
    init(clock: ValidateClock) { self.clock = clock }
}

private struct ValidateRequest: Sendable {
    let mailer: ValidateMailer
    let clock: ValidateClock
}

private final class ValidateController {
    @Inject var mailer: ValidateMailer
    @Inject("request") var currentRequest: ValidateRequest
}

private final class ValidateCounter: Sendable {
    private let count = Atomic(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

private struct ValidateHealthyFactory: ObjectFactory {
    var contextName: String { "Healthy" }

    var definitions: Definitions {
        createEagerSingleton("clock") { ValidateClock() }                                          // c0_0
        createSingleton("mailer") { r in ValidateMailer(clock: try r.object("clock")) }            // c0_1
            .aliases("mailService")
        createPrototype("request") { r in                                                           // c0_2
            ValidateRequest(mailer: try r.object("mailService"), clock: try r.object("CLOCK"))
        }
        createSingleton("controller") { ValidateController() }                                      // c0_3
    }
}

// MARK: A factory with five distinct problems

private struct ValidateFailure: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

private final class ValidateHolder {
    @Inject var missingService: ValidateClock
}

private struct ValidateBrokenFactory: ObjectFactory {
    var contextName: String { "Broken" }

    var definitions: Definitions {
        // 1. a throwing definition (eager: validate must not stop at start-up)
        createEagerSingleton("flaky") { () throws -> ValidateClock in throw ValidateFailure() }
        // 2. an unknown key, reached directly and through another definition: one problem
        createSingleton("needsGhost") { r in try r.object("ghost", as: ValidateClock.self) }
        createPrototype("usesNeedsGhost") { r in try r.object("needsGhost", as: ValidateClock.self) }
        // 3. a type mismatch
        createSingleton("name") { "Ada" }
        createSingleton("wantsNumber") { r in try r.object("name", as: Int.self) }
        // 4. a cycle through creation closures, found from both of its definitions: one problem
        createSingleton("ping") { r in try r.object("pong", as: ValidateClock.self) }
        createSingleton("pong") { r in try r.object("ping", as: ValidateClock.self) }
        // 5. an unresolved @Inject property
        createSingleton("holder") { ValidateHolder() }
        // healthy definitions in between do not count
        createSingleton("fine") { ValidateClock() }
    }
}

// MARK: A factory whose configuration is broken

private struct ValidateBadNamesFactory: ObjectFactory {
    var contextName: String { "BadNames" }

    var definitions: Definitions {
        createSingleton("mailer") { "first" }
        createSingleton("mailer") { "second" }                       // duplicateKey
        aliases(for: "mailr", "postman")                             // aliasOfUnknownKey
        createSingleton("report") { r in try r.object("missing", as: String.self) }   // noSuchObject
    }
}

// MARK: A context whose lazy singletons validate() must not make

private struct ValidateLazyFactory: ObjectFactory {
    let counter: ValidateCounter

    var contextName: String { "Lazy" }

    var definitions: Definitions {
        let counter = counter
        createSingleton("clock") {
            counter.increment()
            return ValidateClock()
        }
        createSingleton("mailer") { r in ValidateMailer(clock: try r.object("clock")) }
        createSingleton("broken") { () throws -> ValidateClock in throw ValidateFailure() }
    }
}

// MARK: Objects whose injection fails, read by others

private final class HalfInjectedMailer: @unchecked Sendable {
    // Unchecked: written by the injecting context before the object is handed out.
    @Inject var server: String
}

private final class AwareOfServer: InjectionAware, @unchecked Sendable {
    // Unchecked: as `HalfInjectedMailer`.
    @Inject var server: String
    var banner = ""
    func didInject(from context: ApplicationContext) { banner = "to " + server }
}

/// Nobody defines "server": `mailer` cannot be injected, and `greeting` reads its property;
/// `aware` reads its own in `didInject`. Read half-injected, either stops the program.
private struct HalfInjectedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { HalfInjectedMailer() }
        createSingleton("greeting") { r in "via " + (try r.object("mailer", as: HalfInjectedMailer.self)).server }
        createPrototype("aware") { AwareOfServer() }
    }
}

// MARK: Lazy properties

private final class Dashboard: @unchecked Sendable {
    // Unchecked: as `HalfInjectedMailer`.
    @Inject("count", .lazy) var report: ValidateClock
}

private final class Panel: @unchecked Sendable {
    // Unchecked: as `HalfInjectedMailer`.
    @Inject("count", .lazy) var report: ValidateClock
}

private final class CycleBreaker: @unchecked Sendable {
    // Unchecked: as `HalfInjectedMailer`.
    @Inject(.lazy) var owner: ValidateMailer
}

/// `dashboard`'s and `panel`'s lazy `report` name an `Int`; `breaker`'s lazy `owner` closes a
/// cycle that only a read made while `owner` is being made would meet.
private struct LazyPropertiesFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("count") { 42 }
        createSingleton("dashboard") { Dashboard() }
        createSingleton("panel") { Panel() }
        createSingleton("owner") { r in
            _ = try r.object("breaker", as: CycleBreaker.self)
            return ValidateMailer(clock: ValidateClock())
        }
        createSingleton("breaker") { CycleBreaker() }
    }
}

// MARK: A failure whose message differs each time

private struct AttemptFailure: Error, CustomStringConvertible {
    let attempt: Int
    var description: String { "attempt \(attempt) failed" }
}

/// `database` throws an error whose text counts the attempts; two definitions need it.
private struct VaryingFailureFactory: ObjectFactory {
    let attempts: ValidateCounter
    var definitions: Definitions {
        let attempts = attempts
        createSingleton("database") { () throws -> ValidateClock in
            attempts.increment()
            throw AttemptFailure(attempt: attempts.value)
        }
        createSingleton("users") { r in try r.object("database", as: ValidateClock.self) }
        createSingleton("orders") { r in try r.object("database", as: ValidateClock.self) }
    }
}

// MARK: Tests

@Suite struct ValidateTests {
    @Test func healthyFactoryHasNoProblems() {
        let report = ApplicationContext.validate(ValidateHealthyFactory())
        #expect(report.problems == [])
        #expect(report.isValid)
        #expect(String(describing: report) == "valid: no problems found")
    }

    @Test func healthyChildFactoryValidatesAgainstItsParent() throws {
        struct Child: ObjectFactory {
            var definitions: Definitions {
                createPrototype("greeting") { r in
                    _ = try r.object("mailService", as: ValidateMailer.self)
                    return "hello"
                }
            }
        }
        let app = try ApplicationContext(ValidateHealthyFactory())
        #expect(ApplicationContext.validate(Child(), parent: app).problems == [])
        // Without the parent, the child's lookup finds nothing.
        let orphan = ApplicationContext.validate(Child())
        #expect(orphan.problems == [.noSuchObject(key: "mailService", searched: ["Child"], path: ["greeting", "mailService"])])
    }

    @Test func brokenFactoryReportsEveryDistinctProblemOnce() {
        let problems = ApplicationContext.validate(ValidateBrokenFactory()).problems
        #expect(problems.count == 5, "\(problems)")
    }

    @Test func brokenFactoryReportsEachKindOfProblem() throws {
        let problems = ApplicationContext.validate(ValidateBrokenFactory()).problems
        #expect(problems.contains(.creationFailed(key: "flaky", path: ["flaky"], underlying: ValidateFailure())))
        #expect(problems.contains(.noSuchObject(key: "ghost", searched: ["Broken"], path: ["needsGhost", "ghost"])))
        #expect(problems.contains(.typeMismatch(key: "name", expected: "Swift.Int", actual: "Swift.String", path: ["wantsNumber", "name"])))
        #expect(problems.contains(.circularDependency(path: ["ping", "pong", "ping"])))
        let unresolved = problems.filter {
            if case .unresolvedInjection(_, "missingService", "missingService") = $0 { return true }
            return false
        }
        #expect(unresolved.count == 1)
        let first = try #require(unresolved.first)
        #expect(String(describing: first).contains("ValidateHolder"))
    }

    @Test(arguments: [
        ("flaky", "creationFailed"), ("needsGhost", "noSuchObject"), ("wantsNumber", "typeMismatch"),
        ("ping", "circularDependency"), ("holder", "unresolvedInjection"),
    ])
    func everyProblemNamesTheDefinitionItWasFoundInInItsPath(definition: String, kind: String) throws {
        let report = ApplicationContext.validate(ValidateBrokenFactory())
        let finding = try #require(report.findings.first { validateKind(of: $0.problem) == kind }, "no \(kind) in \(report)")
        // Cases with a resolution path start it at the definition validated; every finding
        // (unresolvedInjection has no path in its payload) names the definition it was found in.
        if kind != "unresolvedInjection" {
            #expect(finding.problem.path.first == definition, "\(finding)")
        }
        #expect(finding.problem.path.contains(finding.definition) || finding.definition == definition, "\(finding)")
        #expect(String(describing: report).contains("in '\(finding.definition)'"))
    }

    @Test func validateNeverHandsOnOrTellsAnObjectWhosePropertyItCouldNotInject() async throws {
        // Docs/Testing.md: validate goes on after a problem, but an object whose property could
        // not be injected is not injected, as at a lookup: the definition reading it gets the
        // same problem (reported once), and `didInject` is not called.
        let reports = [Sync.validate(HalfInjectedFactory()), await ApplicationContext.validate(HalfInjectedFactory())]
        for report in reports {
            // One problem per type whose property cannot be injected; `greeting` adds none.
            #expect(report.findings.map(\.definition).sorted() == ["aware", "mailer"], "\(report)")
            for problem in report.problems {
                guard case .unresolvedInjection(_, "server", "server") = problem else {
                    Issue.record("expected unresolvedInjection of 'server', got \(problem)")
                    continue
                }
            }
        }
        let context = try Sync.start(HalfInjectedFactory())
        for key in ["greeting", "aware"] {
            let error = try #require(syncError { try Sync.object(context, key, as: Any.self) })
            guard case .unresolvedInjection(_, "server", _) = error else {
                Issue.record("\(key): expected unresolvedInjection, got \(error)")
                continue
            }
        }
    }

    @Test func validateReadsEveryLazyPropertyOnceEveryDefinitionIsMade() async throws {
        // Docs/Testing.md: a first read that would stop the program (here a type mismatch) is
        // a problem validate reports; read after everything is made, a lazy property that
        // breaks a cycle is not one.
        // Each owner's property is a problem of its own, its path from the owner.
        let reports = [Sync.validate(LazyPropertiesFactory()), await ApplicationContext.validate(LazyPropertiesFactory())]
        for report in reports {
            #expect(report.findings.map(\.definition) == ["dashboard", "panel"], "\(report)")
            for finding in report.findings {
                guard case .typeMismatch("count", _, "Swift.Int", let path) = finding.problem else {
                    Issue.record("expected typeMismatch of 'count', got \(finding.problem)")
                    continue
                }
                #expect(path == [finding.definition, "count"], "\(report)")
            }
        }
    }

    @Test func aDefinitionFailingThroughSeveralDependentsIsOneProblemWhateverItsMessages() {
        // Docs/Testing.md: a problem reached through several definitions is reported once.
        let attempts = ValidateCounter()
        let report = Sync.validate(VaryingFailureFactory(attempts: attempts))
        #expect(attempts.value == 3, "each dependent made it again")
        #expect(report.problems.count == 1, "\(report)")
        #expect(report.problems.first?.creationFailure?.key == "database", "\(report)")
    }

    @Test func reportDescriptionNumbersTheProblems() {
        let report = ApplicationContext.validate(ValidateBrokenFactory())
        let lines = String(describing: report).split(separator: "\n")
        #expect(lines.first == "5 problems:")
        #expect(lines.dropFirst().map { $0.prefix(3) } == ["1. ", "2. ", "3. ", "4. ", "5. "])
    }

    @Test func configurationErrorsAreCollectedWithTheOtherProblems() {
        let report = ApplicationContext.validate(ValidateBadNamesFactory())
        #expect(report.problems.count == 3, "\(report.problems)")
        #expect(report.problems.contains(.duplicateKey(key: "mailer", context: "BadNames")))
        #expect(report.problems.contains(.aliasOfUnknownKey(alias: "postman", key: "mailr", context: "BadNames")))
        #expect(report.problems.contains(.noSuchObject(key: "missing", searched: ["BadNames"], path: ["report", "missing"])))
    }

    @Test func contextValidateFindsProblemsOfTheContextsConfiguration() throws {
        let context = try ApplicationContext(ValidateLazyFactory(counter: ValidateCounter()))
        let report = context.validate()
        #expect(report.problems == [.creationFailed(key: "broken", path: ["broken"], underlying: ValidateFailure())])
    }

    @Test func contextValidateNeverChangesTheContext() throws {
        let counter = ValidateCounter()
        let context = try ApplicationContext(ValidateLazyFactory(counter: counter))
        let before = String(describing: context)
        let report = context.validate()
        // The scratch copy made the clock once; the context itself still has not.
        #expect(counter.value == 1)
        #expect(String(describing: context) == before)
        #expect(diagnosticsTableRows(context).map { $0["made"] } == ["no", "no", "no"])
        #expect(!context.graph().contains("->"))
        #expect(report.graph().contains("c0_1 -> c0_0;"))
        // The context makes its own clock on first lookup.
        let mailer: ValidateMailer = try context.object("mailer")
        #expect(try context.object("clock", as: ValidateClock.self) === mailer.clock)
        #expect(counter.value == 2)
    }

    @Test func validateGraphContainsEveryDependencyEdge() {
        let report = ApplicationContext.validate(ValidateHealthyFactory())
        let dot = report.graph(.dot)
        let edges = dot.split(separator: "\n").filter { $0.contains("->") }.map { $0.trimmingPrefixSpaces() }
        #expect(Set(edges) == [
            "c0_1 -> c0_0;",                          // mailer → clock
            "c0_2 -> c0_1;",                          // request → mailService
            "c0_2 -> c0_0;",                          // request → CLOCK
            "c0_3 -> c0_1 [label=\"mailer\"];",       // controller.mailer
            "c0_3 -> c0_2 [label=\"currentRequest\"];", // controller.currentRequest
        ])
        #expect(edges.count == 5)
        #expect(report.graph(.mermaid).contains("c0_3 -->|\"currentRequest\"| c0_2"))
    }

    @Test func invalidKeyIsReportedNotThrown() {
        struct Unusable: ObjectFactory {
            var definitions: Definitions {
                createSingleton(" padded") { 1 }
            }
        }
        let report = ApplicationContext.validate(Unusable())
        #expect(report.problems == [.invalidKey(key: " padded", context: "Unusable")])
    }
}

/// The case name of a problem, e.g. "noSuchObject".
private func validateKind(of problem: ContextError) -> String {
    switch problem {
    case .creationFailed: "creationFailed"
    case .noSuchObject: "noSuchObject"
    case .typeMismatch: "typeMismatch"
    case .circularDependency: "circularDependency"
    case .unresolvedInjection: "unresolvedInjection"
    default: "other"
    }
}

private extension Substring {
    func trimmingPrefixSpaces() -> String {
        String(drop { $0 == " " })
    }
}
