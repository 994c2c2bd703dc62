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

/// Where a closure finds its own context, to inject a helper it made.
private final class ContextBox: @unchecked Sendable {
    // Safe: set by the test before any lookup, read by the closures after.
    var context: ApplicationContext?
}

private struct ReflectionFactory: ObjectFactory {
    var box = ContextBox()

    var definitions: Definitions {
        createSingleton("clock") { ReflectionClock() }
        createPrototype("facade") { ReflectionFacade(helper: ReflectionHelper()) }
        createPrototype("plain") { ReflectionClock() }
        // The helper is injected: by the context, as its error message advises, or from the
        // current context on its first read.
        createPrototype("injectedHelper") { [box] () throws -> ReflectionFacade in
            let helper = ReflectionHelper()
            try box.context!.inject(into: helper)
            return ReflectionFacade(helper: helper)
        }
        createPrototype("currentHelper") { () -> ReflectionFacade in
            let helper = ReflectionHelper()
            _ = helper.clock
            return ReflectionFacade(helper: helper)
        }
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

    /// Docs/Injection.md ("Reflection"): only wrappers that nothing injects are reported.
    @Test func aHelperTheClosureInjectedIsNotTakenForStrippedReflection() throws {
        let factory = ReflectionFactory()
        let context = try ApplicationContext(factory)
        factory.box.context = context
        _ = try context.object("injectedHelper", as: ReflectionFacade.self)
        _ = try context.withCurrent { () throws(ContextError) in try context.object("currentHelper", as: ReflectionFacade.self) }
    }

    @Test func objectsWithoutVisibleFieldsAndNoWrappersAreNotReported() throws {
        let context = try ApplicationContext(ReflectionFactory())
        _ = try context.object("plain", as: ReflectionClock.self)
    }
}
