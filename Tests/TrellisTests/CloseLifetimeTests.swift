import Testing
import Trellis

// MARK: - Fixtures

/// A singleton with an injected property (the context keeps nothing of the injection).
private final class Injected: Disposable, @unchecked Sendable {
    // Unchecked: the @Inject storage is written once, by the context, before the object is shared.
    @Inject var service: DisposableProbe
    let log: DisposalLog
    init(log: DisposalLog) { self.log = log }
    func dispose() { log.record("injected") }
}

private final class Inert: Sendable {}

private struct LifetimeFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "Lifetime" }

    var definitions: Definitions {
        createEagerSingleton("eager") { [log] in DisposableProbe("eager", log: log) }
        createSingleton("service") { [log] r in DisposableProbe("service", log: log, dependencies: [try r.object("helper", as: DisposableProbe.self)]) }
        createPrototype("helper") { [log] r in DisposableProbe("helper", log: log, dependencies: [try r.object("eager", as: DisposableProbe.self)]) }
        createSingleton("injected") { [log] in Injected(log: log) }
        createSingleton("inert") { Inert() }
        createSingleton("fails") { [log] in DisposableProbe("fails", log: log, failing: "refused") }
    }
}

private struct LifetimeChildFactory: ObjectFactory {
    let log: DisposalLog
    var contextName: String { "LifetimeChild" }

    var definitions: Definitions {
        createSingleton("unit") { [log] r in DisposableProbe("unit", log: log, dependencies: [try r.object("service", as: DisposableProbe.self)]) }
    }
}

/// Makes every singleton of `context` and returns weak references to them (made here, so no
/// strong reference stays on the test's stack).
private func makeEverything(_ context: ApplicationContext) throws -> [ConcurrencyWeak] {
    [
        ConcurrencyWeak(try context.object("eager", as: DisposableProbe.self), "eager"),
        ConcurrencyWeak(try context.object("service", as: DisposableProbe.self), "service"),
        ConcurrencyWeak(try context.object("injected", as: Injected.self), "injected"),
        ConcurrencyWeak(try context.object("inert", as: Inert.self), "inert"),
        ConcurrencyWeak(try context.object("fails", as: DisposableProbe.self), "fails"),
    ]
}

/// Builds a context, makes everything, runs `end` on it, drops it; returns the weak references
/// and a weak reference to the context itself.
private func buildAndDrop(_ log: DisposalLog, end: (ApplicationContext) -> Void) throws -> (objects: [ConcurrencyWeak], context: ConcurrencyWeak) {
    let context = try ApplicationContext(LifetimeFactory(log: log))
    let objects = try makeEverything(context)
    end(context)
    return (objects, ConcurrencyWeak(context, "context"))
}

// MARK: - Tests

@Suite("Close: lifetime of a closed context's objects")
struct CloseLifetimeTests {
    @Test func everySingletonIsReleasedOnceTheClosedContextIsReleased() throws {
        let log = DisposalLog()
        let (objects, context) = try buildAndDrop(log) { context in
            // One dispose() fails: that changes nothing about what is released.
            #expect(throws: ContextError.self) { try context.close() }
        }
        #expect(context.object == nil, "the closed context was released")
        for weak in objects {
            #expect(weak.object == nil, "\(weak.label) outlived its closed, released context")
        }
        #expect(log.keys.sorted() == ["eager", "fails", "injected", "service"])
    }

    @Test func contextDroppedWithoutCloseDisposesNothingAndReleasesEverything() throws {
        let log = DisposalLog()
        let (objects, context) = try buildAndDrop(log) { _ in }
        #expect(context.object == nil)
        for weak in objects {
            #expect(weak.object == nil, "\(weak.label) outlived its released context")
        }
        #expect(log.keys.isEmpty, "a context dropped without close() disposes nothing: \(log.keys)")
    }

    @Test func closedChildIsReleasedAndReleasesItsSingletonsWhileTheParentLivesOn() throws {
        let log = DisposalLog()
        let app = try ApplicationContext(LifetimeFactory(log: log))
        var unit: ConcurrencyWeak?
        var child: ConcurrencyWeak?
        do {
            let request = try ApplicationContext(LifetimeChildFactory(log: log), parent: app)
            unit = ConcurrencyWeak(try request.object("unit", as: DisposableProbe.self), "unit")
            child = ConcurrencyWeak(request, "child")
            try request.close()
        }
        #expect(child?.object == nil, "the closed child was released")
        #expect(unit?.object == nil, "the child's singleton was released with it")
        #expect(log.keys == ["unit"])
        // The parent keeps its own singleton, made through the child.
        #expect(try app.object("service", as: DisposableProbe.self).key == "service")
    }

    @Test func asyncClosedContextReleasesItsSingletons() async throws {
        let log = DisposalLog()
        let weak = try await closedAsyncAndDropped(log)
        #expect(weak.context.object == nil)
        for object in weak.objects {
            #expect(object.object == nil, "\(object.label) outlived its closed, released context")
        }
    }

    private func closedAsyncAndDropped(_ log: DisposalLog) async throws -> (objects: [ConcurrencyWeak], context: ConcurrencyWeak) {
        let context = try await ApplicationContext(LifetimeFactory(log: log))
        let objects = try makeEverything(context)
        _ = try? await context.close()
        return (objects, ConcurrencyWeak(context, "context"))
    }
}
