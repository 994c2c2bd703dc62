import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private struct CycleFailure: Error, Equatable, CustomStringConvertible {
    let reason: String
    var description: String { "CycleFailure(\(reason))" }
}

private final class CycleNode: Sendable {
    let key: String
    let next: CycleNode?
    init(_ key: String, next: CycleNode? = nil) {
        self.key = key
        self.next = next
    }
}

/// Counts calls and fails the first `failures` of them.
private final class CycleFlakySource: Sendable {
    private let calls = Guarded(0)
    let failures: Int

    init(failures: Int) { self.failures = failures }

    var count: Int { calls.withLock { $0 } }

    func make(_ key: String) throws -> CycleNode {
        let call = calls.withLock { count in
            count += 1
            return count
        }
        if call <= failures { throw CycleFailure(reason: "call \(call)") }
        return CycleNode(key)
    }
}

private struct CycleFactory: ObjectFactory {
    var contextName: String { "Cycles" }
    var definitions: Definitions {
        // singletons a → b → a
        createSingleton("a") { r in CycleNode("a", next: try r.object("b")) }
        createSingleton("b") { r in CycleNode("b", next: try r.object("a")) }
        // prototypes p → q → p
        createPrototype("p") { r in CycleNode("p", next: try r.object("q")) }
        createPrototype("q") { r in CycleNode("q", next: try r.object("p")) }
        // mixed: singleton s → prototype t → s
        createSingleton("s") { r in CycleNode("s", next: try r.object("t")) }
        createPrototype("t") { r in CycleNode("t", next: try r.object("s")) }
        // self-cycles
        createSingleton("selfSingleton") { r in CycleNode("selfSingleton", next: try r.object("selfSingleton")) }
        createPrototype("selfPrototype") { r in CycleNode("selfPrototype", next: try r.object("selfPrototype")) }
        // a self-cycle through a default alias
        createSingleton("viaAlias") { r in CycleNode("viaAlias", next: try r.object("VIAALIAS")) }
        // a longer cycle entered from outside it: entry → c1 → c2 → c3 → c1
        createSingleton("entry") { r in CycleNode("entry", next: try r.object("c1")) }
        createSingleton("c1") { r in CycleNode("c1", next: try r.object("c2")) }
        createPrototype("c2") { r in CycleNode("c2", next: try r.object("c3")) }
        createSingleton("c3") { r in CycleNode("c3", next: try r.object("c1")) }
        // healthy
        createSingleton("healthy") { CycleNode("healthy") }
    }
}

private struct CycleEagerFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("a") { r in CycleNode("a", next: try r.object("b")) }
        createSingleton("b") { r in CycleNode("b", next: try r.object("a")) }
    }
}

private struct CycleFailingFactory: ObjectFactory {
    var contextName: String { "Failing" }
    let flaky: CycleFlakySource
    let flakyPrototype: CycleFlakySource

    var definitions: Definitions {
        createSingleton("broken") { () throws -> CycleNode in throw CycleFailure(reason: "always") }
        createSingleton("dependsOnBroken") { r in CycleNode("dependsOnBroken", next: try r.object("broken")) }
        createSingleton("flaky") { try flaky.make("flaky") }
        createSingleton("dependsOnFlaky") { r in CycleNode("dependsOnFlaky", next: try r.object("flaky")) }
        createPrototype("flakyPrototype") { try flakyPrototype.make("flakyPrototype") }
        // missing key three levels down: top → mid → missing
        createSingleton("top") { r in CycleNode("top", next: try r.object("mid")) }
        createPrototype("mid") { r in CycleNode("mid", next: try r.object("missing")) }
        // a wrong type two levels down
        createSingleton("wantsString") { r in CycleNode("wantsString", next: CycleNode(try r.object("number", as: String.self))) }
        createSingleton("number") { 42 }
        // a closure that catches a lookup's error and rethrows it as an untyped error
        createSingleton("rethrows") { r -> CycleNode in
            do {
                return try r.object("missing")
            } catch {
                throw error as any Error
            }
        }
    }
}

private struct CycleParentFactory: ObjectFactory {
    var contextName: String { "Parent" }
    var definitions: Definitions {
        createSingleton("parentNeedsMissing") { r in CycleNode("parentNeedsMissing", next: try r.object("missing")) }
    }
}

private struct CycleChildFactory: ObjectFactory {
    var contextName: String { "Child" }
    var definitions: Definitions {
        createSingleton("childTop") { r in CycleNode("childTop", next: try r.object("parentNeedsMissing")) }
    }
}

/// `length` definitions `n0 … n(length-1)`, singletons and prototypes alternating, each
/// depending on the next; the last one ends the chain as `end` says.
private struct CycleChainFactory: ObjectFactory {
    enum End: Sendable { case value, missingKey, cycleToStart, throwing }

    let length: Int
    var end = End.value

    var definitions: Definitions {
        for index in 0..<(length - 1) {
            if index.isMultiple(of: 2) {
                createSingleton("n\(index)") { r in try r.object("n\(index + 1)", as: Int.self) + 1 }
            } else {
                createPrototype("n\(index)") { r in try r.object("n\(index + 1)", as: Int.self) + 1 }
            }
        }
        switch end {
        case .value: createSingleton("n\(length - 1)") { 0 }
        case .missingKey: createSingleton("n\(length - 1)") { r in try r.object("missing", as: Int.self) }
        case .cycleToStart: createSingleton("n\(length - 1)") { r in try r.object("n0", as: Int.self) }
        case .throwing: createSingleton("n\(length - 1)") { () throws -> Int in throw CycleFailure(reason: "bottom") }
        }
    }

    var keys: [String] { (0..<length).map { "n\($0)" } }
}

/// The `ContextError` that `body` throws, or `nil`.
private func contextError(_ body: () throws -> Void) -> ContextError? {
    do {
        try body()
        return nil
    } catch let error as ContextError {
        return error
    } catch {
        Issue.record("expected a ContextError, got \(error)")
        return nil
    }
}

// MARK: - Tests

@Suite struct CycleAndFailureTests {
    // MARK: Cycles

    @Test func singletonCycleIsCircularDependencyWithTheWholePath() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["a", "b", "a"])) {
            try context.object("a", as: CycleNode.self)
        }
        #expect(throws: ContextError.circularDependency(path: ["b", "a", "b"])) {
            try context.object("b", as: CycleNode.self)
        }
    }

    @Test func prototypeCycleIsCircularDependencyWithTheWholePath() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["p", "q", "p"])) {
            try context.object("p", as: CycleNode.self)
        }
    }

    @Test func mixedCycleIsCircularDependencyFromEitherEnd() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["s", "t", "s"])) {
            try context.object("s", as: CycleNode.self)
        }
        #expect(throws: ContextError.circularDependency(path: ["t", "s", "t"])) {
            try context.object("t", as: CycleNode.self)
        }
    }

    @Test func selfCycleIsCircularDependency() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["selfSingleton", "selfSingleton"])) {
            try context.object("selfSingleton", as: CycleNode.self)
        }
        #expect(throws: ContextError.circularDependency(path: ["selfPrototype", "selfPrototype"])) {
            try context.object("selfPrototype", as: CycleNode.self)
        }
    }

    @Test func selfCycleThroughAnAliasIsCircularDependency() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["viaAlias", "viaAlias"])) {
            try context.object("viaAlias", as: CycleNode.self)
        }
    }

    @Test func cycleEnteredFromOutsideKeepsThePathFromTheFirstLookup() throws {
        let context = try ApplicationContext(CycleFactory())
        #expect(throws: ContextError.circularDependency(path: ["entry", "c1", "c2", "c3", "c1"])) {
            try context.object("entry", as: CycleNode.self)
        }
    }

    @Test func cycleLeavesTheContextUsableAndRepeatsTheSameError() throws {
        let context = try ApplicationContext(CycleFactory())
        let first = contextError { _ = try context.object("a", as: CycleNode.self) }
        #expect(try context.object("healthy", as: CycleNode.self).key == "healthy")
        let second = contextError { _ = try context.object("a", as: CycleNode.self) }
        #expect(first == .circularDependency(path: ["a", "b", "a"]))
        #expect(second == first)
    }

    @Test func cycleInAnEagerSingletonMakesTheInitialiserThrow() {
        #expect(throws: ContextError.circularDependency(path: ["a", "b", "a"])) {
            _ = try ApplicationContext(CycleEagerFactory())
        }
    }

    // MARK: Throwing definitions

    @Test func throwingDefinitionIsCreationFailedWithTheUnderlyingError() throws {
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: .init(failures: 0)))
        let error = contextError { _ = try context.object("broken", as: CycleNode.self) }
        guard case let .creationFailed(key, path, underlying) = error else {
            Issue.record("expected creationFailed, got \(String(describing: error))")
            return
        }
        #expect(key == "broken")
        #expect(path == ["broken"])
        #expect(underlying as? CycleFailure == CycleFailure(reason: "always"))
    }

    @Test func throwingDependencyIsCreationFailedWithThePathToIt() throws {
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.creationFailed(key: "broken", path: ["dependsOnBroken", "broken"], underlying: CycleFailure(reason: "always"))) {
            try context.object("dependsOnBroken", as: CycleNode.self)
        }
    }

    @Test func failedSingletonIsNotCachedAndTheNextLookupRetries() throws {
        let flaky = CycleFlakySource(failures: 1)
        let context = try ApplicationContext(CycleFailingFactory(flaky: flaky, flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.creationFailed(key: "flaky", path: ["flaky"], underlying: CycleFailure(reason: "call 1"))) {
            try context.object("flaky", as: CycleNode.self)
        }
        let made: CycleNode = try context.object("flaky")
        #expect(try context.object("flaky", as: CycleNode.self) === made)
        #expect(flaky.count == 2)
    }

    @Test func singletonWhoseDependencyFailedIsRetriedWithIt() throws {
        let flaky = CycleFlakySource(failures: 1)
        let context = try ApplicationContext(CycleFailingFactory(flaky: flaky, flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.creationFailed(key: "flaky", path: ["dependsOnFlaky", "flaky"], underlying: CycleFailure(reason: "call 1"))) {
            try context.object("dependsOnFlaky", as: CycleNode.self)
        }
        let dependent: CycleNode = try context.object("dependsOnFlaky")
        #expect(dependent.next === (try context.object("flaky", as: CycleNode.self)))
        #expect(flaky.count == 2)
    }

    @Test func failedPrototypeIsRetriedOnTheNextLookup() throws {
        let flakyPrototype = CycleFlakySource(failures: 2)
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: flakyPrototype))
        #expect(throws: ContextError.self) { try context.object("flakyPrototype", as: CycleNode.self) }
        #expect(throws: ContextError.self) { try context.object("flakyPrototype", as: CycleNode.self) }
        #expect(try context.object("flakyPrototype", as: CycleNode.self).key == "flakyPrototype")
        #expect(flakyPrototype.count == 3)
    }

    // MARK: Errors pass through unwrapped

    @Test func missingKeyDeepDownIsOneNoSuchObjectWithTheWholePath() throws {
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.noSuchObject(key: "missing", searched: ["Failing"], path: ["top", "mid", "missing"])) {
            try context.object("top", as: CycleNode.self)
        }
    }

    @Test func typeMismatchDeepDownPassesThroughUnwrapped() throws {
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.typeMismatch(key: "number", expected: "Swift.String", actual: "Swift.Int", path: ["wantsString", "number"])) {
            try context.object("wantsString", as: CycleNode.self)
        }
    }

    @Test func contextErrorRethrownUntypedByAClosurePassesThroughUnwrapped() throws {
        let context = try ApplicationContext(CycleFailingFactory(flaky: .init(failures: 0), flakyPrototype: .init(failures: 0)))
        #expect(throws: ContextError.noSuchObject(key: "missing", searched: ["Failing"], path: ["rethrows", "missing"])) {
            try context.object("rethrows", as: CycleNode.self)
        }
    }

    @Test func errorFromAParentDefinitionKeepsThePathThroughTheChild() throws {
        let parent = try ApplicationContext(CycleParentFactory())
        let child = try ApplicationContext(CycleChildFactory(), parent: parent)
        #expect(throws: ContextError.noSuchObject(key: "missing", searched: ["Parent"], path: ["childTop", "parentNeedsMissing", "missing"])) {
            try child.object("childTop", as: CycleNode.self)
        }
    }

    // MARK: Depth

    @Test func longDependencyChainResolvesWithoutStackOverflow() throws {
        let length = 2_000
        let context = try ApplicationContext(CycleChainFactory(length: length))
        #expect(try context.object("n0", as: Int.self) == length - 1)
        #expect(try context.object("n1", as: Int.self) == length - 2)
    }

    @Test func missingKeyAtTheEndOfALongChainReportsTheWholePath() throws {
        let factory = CycleChainFactory(length: 1_000, end: .missingKey)
        let context = try ApplicationContext(factory)
        #expect(throws: ContextError.noSuchObject(key: "missing", searched: ["CycleChainFactory"], path: factory.keys + ["missing"])) {
            try context.object("n0", as: Int.self)
        }
    }

    @Test func cycleThroughALongChainIsCircularDependencyNotADeadlock() async throws {
        let factory = CycleChainFactory(length: 1_000, end: .cycleToStart)
        let context = try Sync.start(factory)
        // On a thread of its own, watched by the hang guard: a deadlock fails the test rather
        // than hang the suite, and a slow machine (no wall-clock limit) only makes it slower.
        let errors = try #require(await finishesOnAThread {
            [contextError { _ = try context.object("n0", as: Int.self) }, contextError { _ = try context.object("n0", as: Int.self) }]
        }, "the lookups did not return: deadlock")
        #expect(errors == [.circularDependency(path: factory.keys + ["n0"]), .circularDependency(path: factory.keys + ["n0"])])
    }

    @Test func throwingDefinitionAtTheEndOfALongChainIsCreationFailedWithTheWholePath() throws {
        let factory = CycleChainFactory(length: 1_000, end: .throwing)
        let context = try ApplicationContext(factory)
        #expect(throws: ContextError.creationFailed(key: "n999", path: factory.keys, underlying: CycleFailure(reason: "bottom"))) {
            try context.object("n0", as: Int.self)
        }
    }
}
