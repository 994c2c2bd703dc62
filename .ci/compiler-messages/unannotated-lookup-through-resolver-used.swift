// KNOWN GAP (Swift 6.3): when the result of an un-annotated lookup through the Resolver is *used*
// later in a multi-statement definition closure, the compiler reports only the use, naming the
// marker type, and not the unavailable overload's "say which type you want". It is still a clear
// error at the right place, never "failed to produce diagnostic"; this file pins what users see
// today (Docs/GettingStarted.md section 5 quotes it), so an improvement or a regression shows here.
import Trellis

final class SystemClock: Sendable {}
final class SMTPMailer: Sendable {
    init(clock: SystemClock) {}
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { r in
            let clock = try r.object("clock")
            return SMTPMailer(clock: clock)      // expect error: cannot convert value of type 'UnannotatedLookup' to expected argument type 'SystemClock'
        }
    }
}
