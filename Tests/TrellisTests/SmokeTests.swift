import Testing
import Trellis

private final class SmokeClock {}

private struct SmokeFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { SmokeClock() }
    }
}

@Test func eagerSingletonIsFoundByKeyAndDefaultAlias() throws {
    let context = try ApplicationContext(SmokeFactory())
    let clock: SmokeClock = try context.object("clock")
    #expect(try context.object("CLOCK", as: SmokeClock.self) === clock)
}
