import Testing
@testable import Trellis

final class Clock { }
final class Mailer { let clock: Clock; init(clock: Clock) { self.clock = clock } }
final class Holder: InjectionAware {
    @Inject var mailer: Mailer
    @Inject("clock") var c: Clock
    @Inject var missing: Mailer?
    @Inject var other: Int = 5
    @Inject("mailer", .lazy) var lazyMailer: Mailer
    var aware = 0
    func didInject(from context: ApplicationContext) { aware += 1 }
}

struct Smoke: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { Clock() }
        createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }.aliases("mailService")
        createPrototype("holder") { Holder() }
        createSingleton("a") { r in try r.object("b", as: Int.self) }
        createSingleton("b") { r in try r.object("a", as: Int.self) }
    }
}

@Test func smoke() throws {
    let c = try ApplicationContext(Smoke())
    let m: Mailer = try c.object("mailService")
    #expect(try c.object("MAILER", as: Mailer.self) === m)
    let h: Holder = try c.object("holder")
    #expect(h.mailer === m)
    #expect(h.missing == nil)
    #expect(h.other == 5)
    #expect(h.lazyMailer === m)
    #expect(h.aware == 1)
    #expect(throws: ContextError.circularDependency(path: ["a", "b", "a"])) { try c.object("a", as: Int.self) }
    print(c.startupReport)
    #expect(throws: ContextError.self) { try c.object("nope", as: Int.self) }
}
