// A lookup that does not say its type, inside a function: the compiler must say how to give the
// type (not "failed to produce diagnostic for expression").
import Trellis

final class Clock: Sendable {}

func takesClock(_ clock: Clock) {}

func start(_ context: ApplicationContext) throws {
    let x = try context.object("clock")  // expect error: say which type you want
    _ = try context.object("clock")      // expect error: say which type you want
}

func startAndUse(_ context: ApplicationContext) throws {
    let clock = try context.object("clock")   // expect error: say which type you want
    takesClock(clock)                         // expect error: cannot convert value of type 'UnannotatedLookup'
}
