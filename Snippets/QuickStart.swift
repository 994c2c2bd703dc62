import Trellis

final class Clock: Sendable {}
struct QuickFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { Clock() }
    }
}
let context = try ApplicationContext(QuickFactory())
let clock: Clock = try context.object("CLOCK")
print("clock:", clock)
