import Testing
import Trellis

private final class ReflectionClock {}

/// A class whose `@Inject` property nothing will ever fill.
private final class ReflectionHelper {
    @Inject var clock: ReflectionClock
}

/// No stored properties, so reflection reports no fields for it, as it would for every class of
/// a binary built with `-disable-reflection-metadata`.
private final class ReflectionFacade {
    init(helper: ReflectionHelper) { _ = helper }
}

private struct ReflectionFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { ReflectionClock() }
        createPrototype("facade") { ReflectionFacade(helper: ReflectionHelper()) }
        createPrototype("plain") { ReflectionClock() }
    }
}

@Suite struct InjectReflectionTests {
    /// The detector behind `reflectionUnavailable`: wrappers made while making an object whose
    /// type shows no stored properties mean injection would silently do nothing.
    @Test func wrappersMadeForAnObjectWithoutVisibleFieldsAreReportedNotIgnored() throws {
        let context = try ApplicationContext(ReflectionFactory())
        #expect(throws: ContextError.reflectionUnavailable(type: String(reflecting: ReflectionFacade.self))) {
            try context.object("facade", as: ReflectionFacade.self)
        }
        let error = ContextError.reflectionUnavailable(type: "X")
        #expect(error.description.contains("-disable-reflection-metadata"))
        #expect(error.description.contains("inject(into:)"))
    }

    @Test func objectsWithoutVisibleFieldsAndNoWrappersAreNotReported() throws {
        let context = try ApplicationContext(ReflectionFactory())
        _ = try context.object("plain", as: ReflectionClock.self)
    }
}
