// Docs quote these messages (Docs/GettingStarted.md section 5, Docs/Concepts.md "Explicit
// aliases"): `aliases(for:_:)` returns a group (`Definitions`), and `.aliases(_:)` exists only on
// one `Definition`, so the two forms cannot be chained.
import Trellis

final class Mailer: Sendable {}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Mailer() }
        aliases(for: "mailer", "mailService").aliases("outbox")   // expect error: no exact matches in call to static method 'buildExpression' // expect error: missing argument label 'of:' in call
    }
}
