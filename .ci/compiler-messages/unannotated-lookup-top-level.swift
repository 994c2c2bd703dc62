// A lookup that does not say its type, at the top level of a program: the compiler must say how
// to give the type (not "failed to produce diagnostic for expression").
import Trellis

final class Clock: Sendable {}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { Clock() }
    }
}

let context = try ApplicationContext(AppFactory())
let x = try context.object("clock")      // expect error: say which type you want
// Docs/GettingStarted.md section 5 quotes this message in full.
_ = try context.object("clock")          // expect error: 'object' is unavailable: say which type you want: `let clock: Clock = try context.object("clock")` or `try context.object("clock", as: Clock.self)`
