import Testing
import TrellisTestSupport
@testable import Trellis

// Children of one app with the same names take the injection routes their first sibling made
// (Docs/DESIGN.md, "Injection: a plan per type, a filler per property"): only for an object of
// the route's type, and nothing the app keeps for them holds a context or an object
// (Docs/Lifecycle.md).

private final class TemplateClock: Sendable {}
private final class TemplateUser {}

private final class TemplateHandler {
    @Inject var user: TemplateUser
    @Inject var clock: TemplateClock
}

/// Another type for the same definition: other fields, in another order.
private final class TemplateAuditor {
    @Inject var clock: TemplateClock
    @Inject var auditor: TemplateUser?
    @Inject("user") var subject: TemplateUser
}

private struct TemplateAppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { TemplateClock() }
    }
}

/// A request: its handler is a `TemplateHandler`, or, when `audits`, a `TemplateAuditor`.
private struct TemplateRequestFactory: ObjectFactory {
    var audits = false
    var definitions: Definitions {
        createSingleton("user") { TemplateUser() }
        createPrototype("handler") { [audits] () -> AnyObject in audits ? TemplateAuditor() : TemplateHandler() }
    }
}

/// Test doubles for a request: the handler is an auditor.
private struct TemplateDoubles: ObjectFactory {
    var definitions: Definitions {
        createPrototype("handler") { () -> AnyObject in TemplateAuditor() }
    }
}

private final class TemplateRefs {
    weak var app: ApplicationContext?
    weak var child: ApplicationContext?
    weak var handler: TemplateHandler?
    weak var user: TemplateUser?
}

private func same(_ first: AnyObject?, _ second: AnyObject?) -> Bool { first === second }

@Suite struct RouteTemplateTests {
    @Test func aSecondChildTakesTheRouteItsFirstSiblingMade() throws {
        let app = try ApplicationContext(TemplateAppFactory())
        let first = try ApplicationContext(TemplateRequestFactory(), parent: app)
        _ = try first.object("handler", as: AnyObject.self)
        let index = try #require(first.configuration.table.definition(withKey: "handler"))
        let taught = try #require(app.childRoutes.template(for: first.configuration.table)?.with { $0.route(at: index) })
        let second = try ApplicationContext(TemplateRequestFactory(), parent: app)
        let handler = try #require(try second.object("handler", as: AnyObject.self) as? TemplateHandler)
        #expect(second.records[index].injection.load(ordering: .acquiring)?.object === taught.object)
        #expect(same(handler.user, try second.object("user", as: TemplateUser.self)))
        #expect(!same(handler.user, try first.object("user", as: TemplateUser.self)))
        #expect(same(handler.clock, try app.object("clock", as: TemplateClock.self)))
    }

    @Test func aSiblingWhoseDefinitionMakesAnotherTypeFindsItsOwnRoute() throws {
        let app = try ApplicationContext(TemplateAppFactory())
        _ = try ApplicationContext(TemplateRequestFactory(), parent: app).object("handler", as: AnyObject.self)
        let auditing = try ApplicationContext(TemplateRequestFactory(audits: true), parent: app)
        for _ in 0..<2 {
            let auditor = try #require(try auditing.object("handler", as: AnyObject.self) as? TemplateAuditor)
            #expect(same(auditor.subject, try auditing.object("user", as: TemplateUser.self)))
            #expect(same(auditor.clock, try app.object("clock", as: TemplateClock.self)))
            #expect(auditor.auditor == nil)
        }
        let plain = try ApplicationContext(TemplateRequestFactory(), parent: app)
        let handler = try #require(try plain.object("handler", as: AnyObject.self) as? TemplateHandler)
        #expect(same(handler.user, try plain.object("user", as: TemplateUser.self)))
    }

    @Test func anOverridingChildAmongProductionSiblingsInjectsItsDoubles() throws {
        let app = try ApplicationContext(TemplateAppFactory())
        _ = try ApplicationContext(TemplateRequestFactory(), parent: app).object("handler", as: AnyObject.self)
        let doubled = try ApplicationContext(TemplateRequestFactory(), overriding: TemplateDoubles(), parent: app)
        let auditor = try #require(try doubled.object("handler", as: AnyObject.self) as? TemplateAuditor)
        #expect(same(auditor.subject, try doubled.object("user", as: TemplateUser.self)))
        let plain = try ApplicationContext(TemplateRequestFactory(), parent: app)
        #expect(try plain.object("handler", as: AnyObject.self) is TemplateHandler)
    }

    @Test func productionChildrenAfterAnOverridingFirstChildInjectTheirOwnObjects() throws {
        let app = try ApplicationContext(TemplateAppFactory())
        let doubled = try ApplicationContext(TemplateRequestFactory(), overriding: TemplateDoubles(), parent: app)
        #expect(try doubled.object("handler", as: AnyObject.self) is TemplateAuditor)
        for _ in 0..<2 {
            let plain = try ApplicationContext(TemplateRequestFactory(), parent: app)
            let handler = try #require(try plain.object("handler", as: AnyObject.self) as? TemplateHandler)
            #expect(same(handler.user, try plain.object("user", as: TemplateUser.self)))
            #expect(same(handler.clock, try app.object("clock", as: TemplateClock.self)))
        }
    }

    @Test func theRoutesChildrenTaughtKeepNoContextOrObjectAlive() throws {
        let refs = TemplateRefs()
        try {
            let app = try ApplicationContext(TemplateAppFactory())
            refs.app = app
            for _ in 0..<3 {
                try {
                    let child = try ApplicationContext(TemplateRequestFactory(), parent: app)
                    let handler = try #require(try child.object("handler", as: AnyObject.self) as? TemplateHandler)
                    refs.child = child
                    refs.handler = handler
                    refs.user = handler.user
                }()
                #expect(refs.child == nil)
                #expect(refs.handler == nil)
                #expect(refs.user == nil)
            }
        }()
        #expect(refs.app == nil)
    }

    @Test func childrenOnManyThreadsTakingAndTeachingRoutesAtOnceInjectTheirOwnObjects() throws {
        let app = try ApplicationContext(TemplateAppFactory())
        let clock = try app.object("clock", as: TemplateClock.self)
        let failures = ConcurrencyCounter()
        let finished = ConcurrencyThreads.run(4) { thread in
            for round in 0..<40 {
                do {
                    let child = try ApplicationContext(TemplateRequestFactory(audits: (thread + round) % 3 == 0), parent: app)
                    let user = try child.object("user", as: TemplateUser.self)
                    switch try child.object("handler", as: AnyObject.self) {
                    case let handler as TemplateHandler:
                        if handler.user !== user || handler.clock !== clock { failures.increment() }
                    case let auditor as TemplateAuditor:
                        if auditor.subject !== user || auditor.clock !== clock { failures.increment() }
                    default:
                        failures.increment()
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
    }
}
