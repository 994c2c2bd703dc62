import Testing
import Trellis
import TrellisTesting

final class SmokeGreeter { let word: String; init(_ w: String) { word = w } }
final class SmokeScreen { @Inject var greeter: SmokeGreeter }

struct SmokeFactory: ObjectFactory {
    var definitions: Definitions { createSingleton("greeter") { SmokeGreeter("hello") } }
}
struct SmokeDoubles: ObjectFactory {
    var definitions: Definitions { createSingleton("greeter") { SmokeGreeter("double") } }
}

@Test(.context(SmokeFactory(), overriding: SmokeDoubles()))
func smokeTraitBindsTheContext() throws {
    #expect(SmokeScreen().greeter.word == "double")
}
