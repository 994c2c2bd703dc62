import Testing
import Trellis

// Issue 10, points 1 and 4 (validation): validation has no side effects on real contexts, and a
// validation run from inside a definition's closure (or hook) sees only its own resolution: the
// same problems, with the same paths, as when it runs on its own.

// MARK: - A real parent whose lazy singleton's injection fails

private final class IsoMissing {}

/// `partner` first (a property cycle: `partner` holds the unfinished service), then `missing`,
/// which no context defines.
private final class IsoService {
    @Inject var partner: IsoPartner
    @Inject var missing: IsoMissing
}

private final class IsoPartner {
    @Inject var service: IsoService
}

private final class IsoClient {
    let service: IsoService?
    init(service: IsoService?) { self.service = service }
}

private final class IsoInjectedClient {
    @Inject var service: IsoService
}

private struct IsoParentFactory: ObjectFactory {
    var contextName: String { "App" }
    var definitions: Definitions {
        createSingleton("service") { IsoService() }
        createSingleton("partner") { IsoPartner() }
    }
}

/// How the validated factory reaches the parent's failing `service`.
enum IsoReach: String, Sendable, CaseIterable {
    /// `try r.object("service")` in a closure: the failure propagates.
    case closure
    /// `try? r.object("service")`: the failure is swallowed.
    case swallowed
    /// An `@Inject var service` of an object the scratch context makes.
    case property
    /// Through `partner` first (a property cycle member of the parent).
    case partner
    /// `try? app.object("service")` called directly on the real context (not the parent).
    case directCall
}

private struct IsoChildFactory: ObjectFactory {
    var contextName: String { "Screen" }
    let reach: IsoReach
    /// The real context a `.directCall` closure calls.
    var app: ApplicationContext?
    var definitions: Definitions {
        switch reach {
        case .closure:
            createSingleton("client") { r in IsoClient(service: try r.object("service", as: IsoService.self)) }
        case .swallowed:
            createSingleton("client") { r in IsoClient(service: try? r.object("service", as: IsoService.self)) }
        case .property:
            createSingleton("client") { IsoInjectedClient() }
        case .partner:
            createSingleton("client") { r in
                _ = try r.object("partner", as: IsoPartner.self)
                return IsoClient(service: nil)
            }
        case .directCall:
            createSingleton("client") { [app] in IsoClient(service: try? app?.object("service", as: IsoService.self)) }
        }
    }
}

/// Checks that the real parent still refuses `service` (and `partner`, which held it) exactly as
/// it would had no validation run.
private func expectParentStillRefusesService(_ app: ApplicationContext, _ comment: Comment) {
    let error = #expect(throws: ContextError.self, comment) { try app.object("service", as: IsoService.self) }
    guard case let .unresolvedInjection(_, property, key)? = error else {
        Issue.record("expected unresolvedInjection, got \(String(describing: error)): \(comment)")
        return
    }
    #expect(property == "missing", comment)
    #expect(key == "missing", comment)
    #expect(throws: ContextError.self, comment) { try app.object("partner", as: IsoPartner.self) }
    let rows = diagnosticsTableRows(app)
    #expect(rows.first { $0["key"] == "service" }?["made"] == "no", comment)
    #expect(rows.first { $0["key"] == "partner" }?["made"] == "no", comment)
}

// MARK: - A factory with problems, validated inside other definitions

private final class IsoClock: Sendable {}

private final class IsoMailer: Sendable {
    init(clock: IsoClock) {}
}

private final class IsoHolder {
    @Inject var ghost: IsoClock
}

/// Three problems: an unknown key one level down (`mailer → clok`), an unresolved property, a
/// cycle. Its keys repeat keys of the factories that validate it, so a validation that saw the
/// caller's frames would report cycles that are not there.
private struct IsoMailFactory: ObjectFactory {
    var contextName: String { "Mail" }
    var definitions: Definitions {
        createSingleton("clock") { IsoClock() }
        createSingleton("mailer") { r in IsoMailer(clock: try r.object("clok")) }
        createPrototype("checker") { r in try r.object("mailer", as: IsoMailer.self) }
        createSingleton("holder") { IsoHolder() }
        createSingleton("ping") { r in try r.object("pong", as: IsoClock.self) }
        createSingleton("pong") { r in try r.object("ping", as: IsoClock.self) }
    }
}

/// What a report says, in a form two reports can be compared by.
struct IsoReportSummary: Sendable, Equatable, CustomStringConvertible {
    let findings: [String]
    let paths: [[String]]

    init(_ report: ValidationReport) {
        findings = report.findings.map(\.description)
        paths = report.problems.map(\.path)
    }

    var description: String { findings.joined(separator: "\n") }
}

private func validateMail() -> IsoReportSummary {
    IsoReportSummary(ApplicationContext.validate(IsoMailFactory()))
}

private func validateMailAsync() async -> IsoReportSummary {
    IsoReportSummary(await ApplicationContext.validate(IsoMailFactory()))
}

/// Holds a summary a hook computed.
private final class IsoSummaryHolder: InjectionAware {
    var summary: IsoReportSummary?
    func didInject(from context: ApplicationContext) { summary = validateMail() }
}

/// Where `validate` is called from.
enum IsoValidationSite: String, Sendable, CaseIterable {
    case singletonClosure, prototypeClosure, eagerClosureAtStart, deepInAChain, didInject, insideAnotherValidation, onAContextMadeInAClosure
}

/// Keys equal to the validated factory's own (`mailer`, `checker`), on purpose.
private struct IsoCallerFactory: ObjectFactory {
    var contextName: String { "Caller" }
    let site: IsoValidationSite
    var definitions: Definitions {
        switch site {
        case .singletonClosure, .insideAnotherValidation:
            createSingleton("mailer") { validateMail() }
        case .prototypeClosure:
            createPrototype("mailer") { validateMail() }
        case .eagerClosureAtStart:
            createEagerSingleton("mailer") { validateMail() }
        case .deepInAChain:
            createSingleton("checker") { r in try r.object("ping", as: IsoReportSummary.self) }
            createPrototype("ping") { r in try r.object("mailer", as: IsoReportSummary.self) }
            createSingleton("mailer") { validateMail() }
        case .didInject:
            createSingleton("mailer") { IsoSummaryHolder() }
        case .onAContextMadeInAClosure:
            createSingleton("mailer") { () throws -> IsoReportSummary in
                let scratch = try ApplicationContext(IsoMailFactory())
                return IsoReportSummary(scratch.validate())
            }
        }
    }
}

private struct IsoAsyncCallerFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { () async -> IsoReportSummary in await validateMailAsync() }
        createSingleton("checker") { (r: Resolver) async throws -> IsoReportSummary in try await r.object("mailer") }
    }
}

/// A healthy factory whose one definition validates the problem factory: its own validation
/// must stay clean (the inner problems are the inner report's), and the inner report must be
/// the same as outside.
private struct IsoHealthyValidatingFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { validateMail() }
    }
}

// MARK: - Tests

@Suite("Validation: no side effects, own resolution")
struct ValidationIsolationTests {
    // MARK: Point 1

    @Test(arguments: IsoReach.allCases)
    func validatingAgainstALiveParentNeverPublishesItsHalfInjectedSingleton(reach: IsoReach) throws {
        let app = try ApplicationContext(IsoParentFactory())
        let report = ApplicationContext.validate(IsoChildFactory(reach: reach, app: app), parent: app)
        if reach != .swallowed && reach != .directCall {
            #expect(report.problems.contains { if case .unresolvedInjection(_, "missing", "missing") = $0 { true } else { false } }, "\(report)")
        }
        expectParentStillRefusesService(app, "after validate(_:parent:), reached by \(reach)")
    }

    @Test(arguments: IsoReach.allCases)
    func validatingALiveChildNeverPublishesItsParentsHalfInjectedSingleton(reach: IsoReach) throws {
        let app = try ApplicationContext(IsoParentFactory())
        let child = try ApplicationContext(IsoChildFactory(reach: reach, app: app), parent: app)
        _ = child.validate()
        expectParentStillRefusesService(app, "after child.validate(), reached by \(reach)")
        #expect(throws: ContextError.self) { try child.object("service", as: IsoService.self) }
        #expect(diagnosticsTableRows(child).first { $0["key"] == "client" }?["made"] == "no", "validate() made the real child's singleton")
    }

    @Test(arguments: IsoReach.allCases)
    func asyncValidationAgainstALiveParentNeverPublishesItsHalfInjectedSingleton(reach: IsoReach) async throws {
        let app = try await ApplicationContext(IsoParentFactory())
        _ = await ApplicationContext.validate(IsoChildFactory(reach: reach, app: app), parent: app)
        expectParentStillRefusesService(app, "after async validate(_:parent:), reached by \(reach)")
    }

    @Test func validationThatSwallowedTheParentsFailureLeavesTheParentFailingAsBefore() throws {
        // The validation's problem collector is active while the real parent makes `service`;
        // the parent must still not publish it, and must fail as a fresh parent does.
        let app = try ApplicationContext(IsoParentFactory())
        _ = ApplicationContext.validate(IsoChildFactory(reach: .swallowed), parent: app)
        expectParentStillRefusesService(app, "after a validation that swallowed the failure")
        // And the parent's failure is the same as before any validation ran.
        let fresh = try ApplicationContext(IsoParentFactory())
        let expected = #expect(throws: ContextError.self) { try fresh.object("service", as: IsoService.self) }
        let actual = #expect(throws: ContextError.self) { try app.object("service", as: IsoService.self) }
        #expect(actual == expected)
    }

    // MARK: Point 4: validate() inside a closure

    @Test func problemFactoryHasTheProblemsTheseTestsCompare() {
        // The reference: validated on its own, the factory reports `mailer → clok`.
        let outside = validateMail()
        #expect(outside.paths.contains(["mailer", "clok"]), "\(outside)")
        #expect(outside.findings.count >= 3, "\(outside)")
    }

    @Test(arguments: IsoValidationSite.allCases)
    func validateCalledInsideADefinitionReportsWhatItReportsOutside(site: IsoValidationSite) throws {
        let outside = validateMail()
        let inside: IsoReportSummary
        switch site {
        case .singletonClosure, .prototypeClosure, .eagerClosureAtStart, .onAContextMadeInAClosure:
            inside = try ApplicationContext(IsoCallerFactory(site: site)).object("mailer")
        case .deepInAChain:
            inside = try ApplicationContext(IsoCallerFactory(site: site)).object("checker")
        case .didInject:
            let holder = try ApplicationContext(IsoCallerFactory(site: site)).object("mailer", as: IsoSummaryHolder.self)
            inside = try #require(holder.summary)
        case .insideAnotherValidation:
            // The outer validation makes "mailer", whose closure validates the inner factory.
            let context = try ApplicationContext(IsoCallerFactory(site: site))
            let outerReport = context.validate()
            #expect(outerReport.problems.isEmpty, "the inner validation's problems leaked into the outer report: \(outerReport)")
            inside = try context.object("mailer")
        }
        #expect(inside == outside, "inside \(site):\n\(inside)\noutside:\n\(outside)")
    }

    @Test func healthyFactoryThatValidatesAnotherInItsClosureValidatesClean() {
        let report = ApplicationContext.validate(IsoHealthyValidatingFactory())
        #expect(report.problems.isEmpty, "\(report)")
    }

    @Test func asyncValidateCalledInsideAnAsyncDefinitionReportsWhatItReportsOutside() async throws {
        let outside = await validateMailAsync()
        let context = try await ApplicationContext(IsoAsyncCallerFactory())
        let inside: IsoReportSummary = try await context.object("checker")
        #expect(inside == outside, "inside:\n\(inside)\noutside:\n\(outside)")
    }
}
