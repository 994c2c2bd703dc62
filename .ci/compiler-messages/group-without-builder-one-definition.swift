// Docs quote this message (Docs/GettingStarted.md section 6): a definition group in an extension
// without @DefinitionsBuilder, holding a single definition (an implicit return of a `Definition`).
import Trellis

final class Clock: Sendable {}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        general
    }
}

extension AppFactory {
    var general: Definitions {
        createEagerSingleton("clock") { Clock() }   // expect error: cannot convert return expression of type 'Definition' to return type 'Definitions'
    }
}
