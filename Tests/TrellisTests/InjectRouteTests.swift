import Foundation
import Synchronization
import Testing
import Trellis

// A context made per request under a long-lived app: the app keeps each injected type's route
// for the children (Docs/DESIGN.md, "Injection: a plan per type, a filler per property"), so a
// fresh child finds no route; these tests pin that nothing it keeps holds a request alive and
// that every rule of a lookup by name still applies (Docs/Injection.md, Docs/Lifecycle.md).

private final class RouteClock: Sendable {}
private final class RouteMailer: Sendable {}
private final class RouteUser {}

private final class RouteService {
    @Inject var clock: RouteClock
    @Inject var mailer: RouteMailer
}

private final class RouteHandler {
    @Inject var user: RouteUser
    @Inject var clock: RouteClock
    @Inject var service: RouteService
    @Inject var missing: RouteMailer?
    @Inject("mailer", .lazy) var lazyMailer: RouteMailer
}

/// A handler whose wrapper's key is chosen by its initialiser, per request.
private final class RouteKeyedHandler {
    @Inject var chosen: RouteUser
    init(key: String) { _chosen = Inject(key) }
}

private struct RouteAppFactory: ObjectFactory {
    var contextName: String { "App" }
    var definitions: Definitions {
        createSingleton("clock") { RouteClock() }
        createSingleton("mailer") { RouteMailer() }
        createPrototype("service") { RouteService() }
    }
}

private struct RouteRequestFactory: ObjectFactory {
    var contextName: String { "Request" }
    var definitions: Definitions {
        createSingleton("user") { RouteUser() }
        createSingleton("handler") { RouteHandler() }
    }
}

private struct RouteKeyedRequestFactory: ObjectFactory {
    let key: String
    var definitions: Definitions {
        createSingleton("alice") { RouteUser() }
        createSingleton("bob") { RouteUser() }
        createSingleton("handler") { [key] in RouteKeyedHandler(key: key) }
    }
}

/// A prototype whose objects name, in turn, the keys of `keys`.
private struct RouteTurnFactory: ObjectFactory {
    let keys = RouteKeyTurns(["alice", "bob"])
    var definitions: Definitions {
        createSingleton("alice") { RouteUser() }
        createSingleton("bob") { RouteUser() }
        createPrototype("handler") { [keys] in RouteKeyedHandler(key: keys.next()) }
    }
}

/// Hands out its keys in turn, from any thread.
private final class RouteKeyTurns: Sendable {
    private let keys: [String]
    private let count = Atomic<Int>(0)
    init(_ keys: [String]) { self.keys = keys }
    func next() -> String { keys[count.add(1, ordering: .relaxed).oldValue % keys.count] }
}

/// Weak references to one request's context and objects, checked once it is dropped.
private final class RouteRequestRefs {
    weak var context: ApplicationContext?
    weak var handler: RouteHandler?
    weak var user: RouteUser?
    weak var service: RouteService?
}

@Suite struct InjectRouteTests {
    @Test func aChildPerRequestIsFreedWithItsObjectsOnceDroppedWhileTheAppKeepsItsRoutes() throws {
        let app = try ApplicationContext(RouteAppFactory())
        let refs = (0..<3).map { _ in RouteRequestRefs() }
        for request in refs {
            try {
                let child = try ApplicationContext(RouteRequestFactory(), parent: app)
                let handler = try child.object("handler", as: RouteHandler.self)
                #expect(handler.clock === (try app.object("clock", as: RouteClock.self)))
                request.context = child
                request.handler = handler
                request.user = handler.user
                request.service = handler.service
                try child.close()
            }()
            #expect(request.context == nil)
            #expect(request.handler == nil)
            #expect(request.user == nil)
            #expect(request.service == nil)
        }
        // A child dropped without closing is freed too.
        let dropped = RouteRequestRefs()
        try {
            let child = try ApplicationContext(RouteRequestFactory(), parent: app)
            dropped.context = child
            dropped.handler = try child.object("handler", as: RouteHandler.self)
        }()
        #expect(dropped.context == nil)
        #expect(dropped.handler == nil)
    }

    @Test func aFreshChildInjectsTheSameObjectsAsTheFirst() throws {
        let app = try ApplicationContext(RouteAppFactory())
        let mailer = try app.object("mailer", as: RouteMailer.self)
        for _ in 0..<3 {
            let child = try ApplicationContext(RouteRequestFactory(), parent: app)
            let handler = try child.object("handler", as: RouteHandler.self)
            #expect(handler.user === (try child.object("user", as: RouteUser.self)))
            #expect(handler.service.mailer === mailer)
            #expect(handler.missing == nil)
            #expect(handler.lazyMailer === mailer)
        }
    }

    @Test func aFreshChildRecordsTheEdgesOfItsInjectedPropertiesForTheGraph() throws {
        let app = try ApplicationContext(RouteAppFactory())
        _ = try app.object("clock", as: RouteClock.self)
        let first = try ApplicationContext(RouteRequestFactory(), parent: app)
        _ = try first.object("handler", as: RouteHandler.self)
        let second = try ApplicationContext(RouteRequestFactory(), parent: app)
        _ = try second.object("handler", as: RouteHandler.self)
        #expect(second.graph() == first.graph())
        #expect(second.graph().contains(#"c0_1 -> c1_0 [label="clock"];"#))
        #expect(second.graph().contains(#"c0_1 -> c1_2 [label="service"];"#))
    }

    @Test func aClosedAncestorFailsAFreshChildsInjectionAsALookupWould() throws {
        let app = try ApplicationContext(RouteAppFactory())
        let middle = try ApplicationContext(RouteKeyedRequestFactory(key: "alice"), parent: app)
        _ = try ApplicationContext(RouteRequestFactory(), parent: middle).object("handler", as: RouteHandler.self)
        try app.close()
        let fresh = try ApplicationContext(RouteRequestFactory(), parent: middle)
        #expect(throws: ContextError.contextClosed(context: "App", key: "clock")) {
            try fresh.object("handler", as: RouteHandler.self)
        }
    }

    @Test func aChildsWrappersNamingOtherKeysAreInjectedByThoseKeys() throws {
        let app = try ApplicationContext(RouteAppFactory())
        for key in ["alice", "bob", "alice"] {
            let child = try ApplicationContext(RouteKeyedRequestFactory(key: key), parent: app)
            // Both made first: a route to either would be taken without a lookup.
            _ = try child.object("alice", as: RouteUser.self)
            _ = try child.object("bob", as: RouteUser.self)
            let handler = try child.object("handler", as: RouteKeyedHandler.self)
            #expect(handler.chosen === (try child.object(key, as: RouteUser.self)))
        }
    }

    @Test func objectsOfOneDefinitionWhoseWrappersNameOtherKeysAreInjectedByThoseKeys() throws {
        let context = try ApplicationContext(RouteTurnFactory())
        let alice = try context.object("alice", as: RouteUser.self)
        let bob = try context.object("bob", as: RouteUser.self)
        let chosen = try (0..<4).map { _ in try context.object("handler", as: RouteKeyedHandler.self).chosen }
        #expect(chosen.map { $0 === alice } == [true, false, true, false])
        #expect(chosen.map { $0 === bob } == [false, true, false, true])
    }

    @Test func childrenMadeOnManyThreadsAtOnceInjectTheirOwnObjects() throws {
        let app = try ApplicationContext(RouteAppFactory())
        let clock = try app.object("clock", as: RouteClock.self)
        let failures = ConcurrencyCounter()
        let finished = ConcurrencyThreads.run(4) { _ in
            for _ in 0..<50 {
                do {
                    let child = try ApplicationContext(RouteRequestFactory(), parent: app)
                    let handler = try child.object("handler", as: RouteHandler.self)
                    let user = try child.object("user", as: RouteUser.self)
                    if handler.clock !== clock || handler.user !== user { failures.increment() }
                    try child.close()
                } catch {
                    failures.increment()
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
    }
}
