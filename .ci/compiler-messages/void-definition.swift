// Docs quote these messages (Docs/GettingStarted.md "Common mistakes"): a closure that returns
// nothing defines `()`. The compiler cannot reject it (an unavailable overload is never picked),
// so the Void overloads are deprecated: a warning at the definition, and `invalidDefinition`
// when a context is configured (ErrorMessageTests pins that message).
import Trellis

final class SystemClock: Sendable {}

struct AppFactory: ObjectFactory {
    let verbose: Bool
    var definitions: Definitions {
        createSingleton("clock") { print("making the clock") }   // expect warning: 'createSingleton' is deprecated: this closure returns nothing, so the definition would make `()`
        createEagerSingleton("timer") { if verbose { print("timer") } }   // expect warning: 'createEagerSingleton' is deprecated: this closure returns nothing
        createPrototype("tick") { () -> Void in }   // expect warning: 'createPrototype' is deprecated: this closure returns nothing
        createSingleton("systemClock") { print("making the clock"); return SystemClock() }
    }
}
