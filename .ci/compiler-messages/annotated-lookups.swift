// The lookups that say their type compile, on the context and through the Resolver.
import Trellis

final class Clock: Sendable {}
final class Mailer: Sendable {
    init(clock: Clock) {}
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { Clock() }
        createSingleton("mailer") { r in Mailer(clock: try r.object("clock")) }
        createSingleton("mailer2") { r in
            let clock: Clock = try r.object("clock")
            return Mailer(clock: clock)
        }
        createSingleton("mailer3") { r in Mailer(clock: try r.object("clock", as: Clock.self)) }
        createSingleton("optionalClock") { r in
            let clock: Clock? = try r.object("clock")
            return clock.map { _ in 1 } ?? 0
        }
    }
}

let context = try ApplicationContext(AppFactory())
let c: Clock = try context.object("clock")
let d = try context.object("clock", as: Clock.self)
let e: Clock? = try context.object("clock")
print(c, d, e as Any)
