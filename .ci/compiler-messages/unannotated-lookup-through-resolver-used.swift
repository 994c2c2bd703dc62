// KNOWN GAP (Swift 6.3): when the result of an un-annotated lookup through the Resolver is *used*
// later in a multi-statement definition closure, the compiler reports only the use, naming the
// marker type, and not the unavailable overload's "say which type you want". It is still a clear
// error at the right place, never "failed to produce diagnostic"; this file pins what users see
// today, so an improvement (or a regression) shows up here.
import Trellis

final class Clock: Sendable {}
final class Mailer: Sendable {
    init(clock: Clock) {}
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { r in
            let clock = try r.object("clock")
            return Mailer(clock: clock)          // expect error: cannot convert value of type 'UnannotatedLookup' to expected argument type 'Clock'
        }
    }
}
