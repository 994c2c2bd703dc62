// The three checks every app writes for its factories, without a test framework so that it runs
// with `swift run TestingFactories`: validate a factory, override a definition with a test
// double, and test one factory's definitions. Docs/Testing.md shows the same with Swift Testing.
import Trellis

// MARK: - Production code

protocol Clock: Sendable {
    func now() -> String
}

struct SystemClock: Clock {
    func now() -> String { "the real time" }
}

final class Mailer: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
    func send(_ text: String) -> String { "[\(clock.now())] \(text)" }
}

final class Newsletter {
    @Inject var mailer: Mailer
    func publish() -> String { mailer.send("this week's news") }
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { SystemClock() as any Clock }
        createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }
            .aliases("mailService")
        createPrototype("newsletter") { Newsletter() }
    }
}

// MARK: - Test doubles: a factory defining only the keys to replace

struct FixedClock: Clock {
    let time: String
    func now() -> String { time }
}

struct TestDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { FixedClock(time: "09:41") as any Clock }
    }
}

func check(_ label: String, _ passed: Bool) {
    print(passed ? "pass" : "FAIL", label)
}

// MARK: - 1. Validate the factory: every definition made once, every problem collected

let report = ApplicationContext.validate(AppFactory())
check("AppFactory is valid: \(report)", report.problems == [])

// A broken factory reports every problem, not only the first.
struct BrokenFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { r in Mailer(clock: try r.object("clok")) }   // a typo
        createPrototype("newsletter") { Newsletter() }                         // needs "mailer"
        createSingleton("greeting") { "hello" }
        createSingleton("count") { r in try r.object("greeting", as: Int.self) } // not an Int
    }
}
let broken = ApplicationContext.validate(BrokenFactory())
check("BrokenFactory has 2 problems", broken.problems.count == 2)
print(broken)

// MARK: - 2. Override a definition with a test double

let context = try ApplicationContext(AppFactory(), overriding: TestDoubles())
let newsletter: Newsletter = try context.object("newsletter")
check("the newsletter's mailer uses the fixed clock: \(newsletter.publish())", newsletter.publish() == "[09:41] this week's news")
// Names stay the production factory's: the clock's default alias finds the double too.
check("'CLOCK' is the double", try context.object("CLOCK", as: (any Clock).self) is FixedClock)

// An override of a key the factory does not have is an error, so a renamed key cannot leave a
// test silently using the real object.
struct StaleDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("systemClock") { FixedClock(time: "09:41") as any Clock }
    }
}
do {
    _ = try ApplicationContext(AppFactory(), overriding: StaleDoubles())
    check("a stale override is rejected", false)
} catch {
    check("a stale override is rejected: \(error)", error == .overrideOfUnknownKey(key: "systemClock", context: "AppFactory"))
}

// MARK: - 3. Test one factory's definitions

let definitions = AppFactory().definitions
check("keys in declaration order", definitions.keys == ["clock", "mailer", "newsletter"])
check("clock is an eager singleton", definitions.scope(of: "clock") == .eagerSingleton)
check("mailer's explicit alias", definitions.aliases(of: "mailer") == ["mailService"])
let production = try ApplicationContext(AppFactory())
check("mailService is a Mailer using the system clock",
      try production.object("mailService", as: Mailer.self).clock is SystemClock)
