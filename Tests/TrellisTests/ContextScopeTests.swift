import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

/// Records, thread-safely, which objects were made and in what order, and watches them weakly.
private final class ScopeRecorder: Sendable {
    private let made = Guarded<[String]>([])
    private let watched = Guarded<[ScopeWeak]>([])

    var order: [String] { made.withLock { $0 } }

    func count(of key: String) -> Int { order.filter { $0 == key }.count }

    /// Records that `key` was made and returns a new tracked object for it, watched weakly.
    func make(_ key: String) -> ScopeTracked {
        let object = ScopeTracked(key)
        made.withLock { $0.append(key) }
        watched.withLock { $0.append(ScopeWeak(object: object)) }
        return object
    }

    /// How many of the objects made are still alive.
    var alive: Int { watched.withLock { $0.filter { $0.object != nil }.count } }
}

private struct ScopeWeak: Sendable {
    weak var object: ScopeTracked?
}

private final class ScopeTracked: Sendable {
    let key: String
    init(_ key: String) { self.key = key }
}

private struct ScopeFailure: Error, Equatable {}

private struct ScopeEagerOrderFactory: ObjectFactory {
    let recorder: ScopeRecorder
    var definitions: Definitions {
        createEagerSingleton("first") { recorder.make("first") }
        createSingleton("lazyUnused") { recorder.make("lazyUnused") }
        createSingleton("lazyDependency") { recorder.make("lazyDependency") }
        createEagerSingleton("second") { r in
            _ = try r.object("lazyDependency", as: ScopeTracked.self)
            return recorder.make("second")
        }
        createPrototype("prototype") { recorder.make("prototype") }
        createEagerSingleton("third") { recorder.make("third") }
    }
}

private struct ScopeFailingEagerFactory: ObjectFactory {
    let recorder: ScopeRecorder
    var definitions: Definitions {
        createEagerSingleton("made") { recorder.make("made") }
        createEagerSingleton("alsoMade") { r in
            _ = try r.object("made", as: ScopeTracked.self)
            return recorder.make("alsoMade")
        }
        createEagerSingleton("broken") { () throws -> ScopeTracked in throw ScopeFailure() }
        createEagerSingleton("never") { recorder.make("never") }
    }
}

private struct ScopeLifetimeFactory: ObjectFactory {
    let recorder: ScopeRecorder
    var definitions: Definitions {
        createSingleton("lazy") { recorder.make("lazy") }
        createPrototype("prototype") { recorder.make("prototype") }
        createPrototype("prototypeWithSingleton") { r in
            _ = try r.object("lazy", as: ScopeTracked.self)
            return recorder.make("prototypeWithSingleton")
        }
    }
}

private struct ScopeParentFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("inParent") { ScopeTracked("inParent") }
    }
}

private struct ScopeChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("inChild") { ScopeTracked("inChild") }
    }
}

// MARK: - Tests

@Suite struct ContextScopeTests {
    // MARK: Initialisers

    @Test func factoryInitialiserBuildsAContextWithItsParent() throws {
        let parent = try ApplicationContext(ScopeParentFactory())
        let child = try ApplicationContext(ScopeChildFactory(), parent: parent)
        #expect(child.parent === parent)
        #expect(parent.parent == nil)
        #expect(try child.object("inParent", as: ScopeTracked.self) === parent.object("inParent", as: ScopeTracked.self))
    }

    @Test func configuratorInitialiserBuildsAContextWithItsParent() throws {
        let parent = try ApplicationContext(configurator: ConfiguratorFromFactory(ScopeParentFactory()))
        let child = try ApplicationContext(configurator: ConfiguratorFromFactory(ScopeChildFactory()), parent: parent)
        #expect(child.parent === parent)
        #expect(child.name == "ScopeChildFactory")
        #expect(child.keys == ["inChild"])
        #expect(try child.object("inParent", as: ScopeTracked.self).key == "inParent")
    }

    // MARK: Eager singletons

    @Test func eagerSingletonsAreMadeAtStartInDeclarationOrderWithTheirDependencies() throws {
        let recorder = ScopeRecorder()
        _ = try ApplicationContext(ScopeEagerOrderFactory(recorder: recorder))
        #expect(recorder.order == ["first", "lazyDependency", "second", "third"])
    }

    @Test func eagerSingletonIsTheSameInstanceLaterAndNotMadeAgain() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeEagerOrderFactory(recorder: recorder))
        let first: ScopeTracked = try context.object("first")
        #expect(try context.object("first", as: ScopeTracked.self) === first)
        #expect(recorder.count(of: "first") == 1)
    }

    @Test func eachContextMakesItsOwnEagerSingletons() throws {
        let recorder = ScopeRecorder()
        let configurator = try ConfiguratorFromFactory(ScopeEagerOrderFactory(recorder: recorder))
        let one = try ApplicationContext(configurator: configurator)
        let two = try ApplicationContext(configurator: configurator)
        #expect(recorder.count(of: "first") == 2)
        #expect(try one.object("first", as: ScopeTracked.self) !== two.object("first", as: ScopeTracked.self))
    }

    @Test func failingEagerSingletonMakesTheInitialiserThrow() {
        let recorder = ScopeRecorder()
        #expect(throws: ContextError.creationFailed(key: "broken", path: ["broken"], underlying: ScopeFailure())) {
            _ = try ApplicationContext(ScopeFailingEagerFactory(recorder: recorder))
        }
    }

    @Test func failingEagerSingletonStopsStartUpAndReleasesWhatWasMade() {
        let recorder = ScopeRecorder()
        #expect(throws: ContextError.self) {
            _ = try ApplicationContext(ScopeFailingEagerFactory(recorder: recorder))
        }
        #expect(recorder.order == ["made", "alsoMade"])
        #expect(recorder.alive == 0)
    }

    // MARK: Lazy singletons

    @Test func lazySingletonIsNotMadeBeforeItsFirstLookup() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        #expect(recorder.order.isEmpty)
        _ = try context.object("lazy", as: ScopeTracked.self)
        #expect(recorder.order == ["lazy"])
    }

    @Test func lazySingletonIsMadeOnceForEveryNameItAnswersTo() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        let first: ScopeTracked = try context.object("lazy")
        let second: ScopeTracked = try context.object("LAZY")
        let third: ScopeTracked = try context.object("lazy")
        #expect(first === second && second === third)
        #expect(recorder.count(of: "lazy") == 1)
    }

    @Test func lazySingletonIsMadeOnceWhenADependentAsksFirst() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        _ = try context.object("prototypeWithSingleton", as: ScopeTracked.self)
        _ = try context.object("prototypeWithSingleton", as: ScopeTracked.self)
        _ = try context.object("lazy", as: ScopeTracked.self)
        #expect(recorder.count(of: "lazy") == 1)
    }

    @Test func singletonLivesAsLongAsItsContext() throws {
        let recorder = ScopeRecorder()
        func lookUpAndDrop() throws {
            let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
            _ = try context.object("lazy", as: ScopeTracked.self)
            #expect(recorder.alive == 1)
        }
        try lookUpAndDrop()
        #expect(recorder.alive == 0)
    }

    // MARK: Prototypes

    @Test func prototypeIsNewOnEveryLookup() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        let first: ScopeTracked = try context.object("prototype")
        let second: ScopeTracked = try context.object("prototype")
        let third: ScopeTracked = try context.object("PROTOTYPE")
        #expect(first !== second && second !== third && first !== third)
        #expect(recorder.count(of: "prototype") == 3)
    }

    @Test func prototypeIsNotMadeAtStart() throws {
        let recorder = ScopeRecorder()
        _ = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        #expect(recorder.count(of: "prototype") == 0)
    }

    @Test func prototypeIsNotRetainedByTheContext() throws {
        let recorder = ScopeRecorder()
        let context = try ApplicationContext(ScopeLifetimeFactory(recorder: recorder))
        func lookUpAndDrop() throws {
            let object: ScopeTracked = try context.object("prototype")
            #expect(object.key == "prototype")
            #expect(recorder.alive == 1)
        }
        try lookUpAndDrop()
        #expect(recorder.alive == 0)
        withExtendedLifetime(context) {}
    }
}
