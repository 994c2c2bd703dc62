// Docs quote these messages (README "A first example", Docs/GettingStarted.md section 6): a
// definition group in an extension without @DefinitionsBuilder, with several definitions. The
// attribute is inherited only by the protocol requirement `definitions`, not by other properties.
// The compiler warns about each unused definition and fails at the end of the getter.
import Trellis

final class Clock: Sendable {}
final class Mailer: Sendable {}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        services
    }
}

extension AppFactory {
    var services: Definitions {
        createSingleton("clock") { Clock() }      // expect warning: result of call to 'createSingleton' is unused
        createSingleton("mailer") { Mailer() }    // expect warning: result of call to 'createSingleton' is unused
        aliases(for: "mailer", "mailService")    // expect error: missing return in getter expected to return 'Definitions'
    }
}
