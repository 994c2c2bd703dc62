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

private final class RouteOrderService {
    init(clock: RouteClock) {}
}

private final class RouteOrderHandler {
    @Inject var service: RouteOrderService
    @Inject var mailer: RouteMailer
}

private struct RouteOrderFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { RouteClock() }
        createSingleton("mailer") { RouteMailer() }
        createSingleton("service") { r in RouteOrderService(clock: try r.object("clock")) }
        createSingleton("handler") { RouteOrderHandler() }
    }
}

/// More properties than one word of the journal's routed-edge record covers (64).
private final class RouteWideObject {
    @Inject var p0: RouteClock
    @Inject var p1: RouteClock
    @Inject var p2: RouteClock
    @Inject var p3: RouteClock
    @Inject var p4: RouteClock
    @Inject var p5: RouteClock
    @Inject var p6: RouteClock
    @Inject var p7: RouteClock
    @Inject var p8: RouteClock
    @Inject var p9: RouteClock
    @Inject var p10: RouteClock
    @Inject var p11: RouteClock
    @Inject var p12: RouteClock
    @Inject var p13: RouteClock
    @Inject var p14: RouteClock
    @Inject var p15: RouteClock
    @Inject var p16: RouteClock
    @Inject var p17: RouteClock
    @Inject var p18: RouteClock
    @Inject var p19: RouteClock
    @Inject var p20: RouteClock
    @Inject var p21: RouteClock
    @Inject var p22: RouteClock
    @Inject var p23: RouteClock
    @Inject var p24: RouteClock
    @Inject var p25: RouteClock
    @Inject var p26: RouteClock
    @Inject var p27: RouteClock
    @Inject var p28: RouteClock
    @Inject var p29: RouteClock
    @Inject var p30: RouteClock
    @Inject var p31: RouteClock
    @Inject var p32: RouteClock
    @Inject var p33: RouteClock
    @Inject var p34: RouteClock
    @Inject var p35: RouteClock
    @Inject var p36: RouteClock
    @Inject var p37: RouteClock
    @Inject var p38: RouteClock
    @Inject var p39: RouteClock
    @Inject var p40: RouteClock
    @Inject var p41: RouteClock
    @Inject var p42: RouteClock
    @Inject var p43: RouteClock
    @Inject var p44: RouteClock
    @Inject var p45: RouteClock
    @Inject var p46: RouteClock
    @Inject var p47: RouteClock
    @Inject var p48: RouteClock
    @Inject var p49: RouteClock
    @Inject var p50: RouteClock
    @Inject var p51: RouteClock
    @Inject var p52: RouteClock
    @Inject var p53: RouteClock
    @Inject var p54: RouteClock
    @Inject var p55: RouteClock
    @Inject var p56: RouteClock
    @Inject var p57: RouteClock
    @Inject var p58: RouteClock
    @Inject var p59: RouteClock
    @Inject var p60: RouteClock
    @Inject var p61: RouteClock
    @Inject var p62: RouteClock
    @Inject var p63: RouteClock
    @Inject var p64: RouteClock
    @Inject var p65: RouteClock
    @Inject var p66: RouteClock
    @Inject var p67: RouteClock
    @Inject var p68: RouteClock
    @Inject var p69: RouteClock
}

private struct RouteWideFactory: ObjectFactory {
    var definitions: Definitions {
        for i in 0..<70 { createSingleton("p\(i)") { RouteClock() } }
        createSingleton("wide") { RouteWideObject() }
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

    @Test func anInjectedObjectsEdgesAreRecordedBeforeThoseOfWhatItsPropertiesMake() throws {
        // The handler's routed properties are recorded at once, before the first is filled: its
        // edge to `mailer` (second property) comes before the edge of `service` (first property,
        // made while filling it) to `clock` (Docs/Diagnostics.md, "The dependency graph").
        let context = try ApplicationContext(RouteOrderFactory())
        _ = try context.object("handler", as: RouteOrderHandler.self)
        let graph = context.graph()
        let handlerToMailer = try #require(graph.range(of: #"c0_3 -> c0_1 [label="mailer"];"#))
        let serviceToClock = try #require(graph.range(of: "c0_2 -> c0_0;"))
        #expect(handlerToMailer.lowerBound < serviceToClock.lowerBound)
    }

    @Test func everyRoutedPropertyOfAnObjectWithMoreThanSixtyFourRecordsItsEdge() throws {
        let context = try ApplicationContext(RouteWideFactory())
        _ = try context.object("wide", as: RouteWideObject.self)
        let graph = context.graph()
        for i in 0..<70 {
            #expect(graph.contains("c0_70 -> c0_\(i) [label=\"p\(i)\"];"))
        }
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
