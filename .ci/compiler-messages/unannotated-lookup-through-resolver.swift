// A lookup through the Resolver of a definition's closure that does not say its type: the
// compiler must say how to give the type (not "failed to produce diagnostic for expression").
// One factory per case: an error in one closure of a builder body hides errors in the others.
import Trellis

final class Clock: Sendable {}

struct LetFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { r in
            let clock = try r.object("clock")    // expect error: say which type you want
            return 1
        }
    }
}

struct DiscardFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("warmUp") { r in
            _ = try r.object("clock")            // expect error: say which type you want
            return 1
        }
    }
}

struct ReturnFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("sameClock") { r in try r.object("clock") }   // expect error: say which type you want
    }
}
