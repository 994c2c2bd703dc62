import Testing
@testable import Trellis

// Docs/Async.md, "When one fails": which failure a concurrent start throws, asked of the rule
// itself: whether a failure ended before or after the start was cancelled depends on timing, so
// a start run in a loop shows a wrong choice only now and then.

private struct DependencyDown: Error {}

private typealias Failure = ContextStart.Failure

/// A context that defines the keys the paths below name (the rule reads which ones are its own).
private struct ChoiceFactory: ObjectFactory {
    var definitions: Definitions {
        for key in ["first", "second", "third", "dep", "a", "b", "cache", "database", "x", "m"] {
            createSingleton(key) { key }
        }
    }
}

private let choiceContext = try! ApplicationContext(ChoiceFactory())

/// A parent whose `x` answers to `px` too, and a child with an `x` and an `a` of its own.
private struct ChoiceParentFactory: ObjectFactory {
    var definitions: Definitions { createSingleton("x") { "parent x" }.aliases("px") }
}

private struct ChoiceChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("a") { "a" }
        createSingleton("x") { "child x" }
    }
}

private let childContext = try! ApplicationContext(ChoiceChildFactory(), parent: try! ApplicationContext(ChoiceParentFactory()))

/// A parent whose definitions the child shadows, answering to every one of their names.
private struct ShadowedParentFactory: ObjectFactory {
    var definitions: Definitions {
        for key in ["m", "dep"] { createSingleton(key) { "parent \(key)" } }
    }
}

private struct ShadowingChildFactory: ObjectFactory {
    var definitions: Definitions {
        for key in ["a", "b", "m", "dep", "e"] { createSingleton(key) { "child \(key)" } }
    }
}

private let shadowingContext = try! ApplicationContext(ShadowingChildFactory(), parent: try! ApplicationContext(ShadowedParentFactory()))

@Suite struct StartFailureChoiceTests {
    @Test func aGenuineFailureIsReportedAsItReachedTheEagerSingletonNearestItsCause() {
        // `first` looked up `dep`, which failed on its own. `first`'s failure is the same one
        // seen through its lookup, or, when the start was cancelled first, the cancellation of
        // its retry: either way the start reports `dep`'s own failure.
        let throughLookup = ContextError.creationFailed(key: "dep", path: ["first", "dep"], underlying: DependencyDown())
        let own = ContextError.creationFailed(key: "dep", path: ["dep"], underlying: DependencyDown())
        let retryCancelled = ContextError.creationFailed(key: "dep", path: ["first", "dep"], underlying: CancellationError())
        for first in [Failure(position: 0, error: throughLookup, wasCancelled: false),
                      Failure(position: 0, error: throughLookup, wasCancelled: true),
                      Failure(position: 0, error: retryCancelled, wasCancelled: true)] {
            let chosen = ContextStart.earliestFailure([.init(position: 1, error: own, wasCancelled: false), first], eagerPositions: ["first": 0, "dep": 1], in: choiceContext)
            #expect(chosen?.path == ["dep"])
        }
    }

    @Test func aFailureIsReportedAsItsOwnEagerSingletonMetItWhicheverTaskMadeIt() {
        // `first`'s task made `second` (its lookup claimed it first) and met the failure;
        // `second`'s own task, waiting, retried after the cancellation and was cancelled. The
        // start still reports the failure as `second` meets it.
        let viaFirst = ContextError.creationFailed(key: "second", path: ["first", "second"], underlying: DependencyDown())
        let retryCancelled = ContextError.creationFailed(key: "second", path: ["second"], underlying: CancellationError())
        let chosen = ContextStart.earliestFailure([
            .init(position: 0, error: viaFirst, wasCancelled: false),
            .init(position: 1, error: retryCancelled, wasCancelled: true),
        ], eagerPositions: ["first": 0, "second": 1], in: choiceContext)
        #expect(chosen?.path == ["second"])
        #expect(chosen?.creationFailure?.underlying is DependencyDown)
    }

    @Test func aFailureDeepInADependsOnChainIsReportedAsItsOwnDefinitions() {
        // `first` depends on `second`, which depends on `third`, which fails.
        let third = ContextError.creationFailed(key: "third", path: ["third"], underlying: DependencyDown())
        let viaSecond = ContextError.creationFailed(key: "third", path: ["second", "third"], underlying: DependencyDown())
        let viaFirst = ContextError.creationFailed(key: "third", path: ["first", "second", "third"], underlying: DependencyDown())
        let chosen = ContextStart.earliestFailure([
            .init(position: 0, error: viaFirst, wasCancelled: false),
            .init(position: 2, error: third, wasCancelled: false),
            .init(position: 1, error: viaSecond, wasCancelled: true),
        ], eagerPositions: ["first": 0, "second": 1, "third": 2], in: choiceContext)
        #expect(chosen?.path == ["third"])
    }

    @Test func aLazyFailureTwoEagerSingletonsMetIsReportedAsTheEarliestDeclaredMetIt() {
        // `a` and `b` both look up the lazy `dep`, which fails. `b`'s task made it and met the
        // failure; `a`, waiting, retried after the cancellation and was cancelled: the start
        // reports the failure as `a` meets it, whichever task made `dep`.
        let viaB = ContextError.creationFailed(key: "dep", path: ["b", "dep"], underlying: DependencyDown())
        let aCancelled = ContextError.creationFailed(key: "dep", path: ["a", "dep"], underlying: CancellationError())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: viaB, wasCancelled: false),
            .init(position: 0, error: aCancelled, wasCancelled: true),
        ], eagerPositions: ["a": 0, "b": 1], in: choiceContext)
        #expect(chosen?.path == ["a", "dep"])
        #expect(chosen?.creationFailure?.underlying is DependencyDown)
    }

    @Test func aParentsDefinitionOnThePathIsNotTakenForAnOwnEagerSingletonOfTheSameName() {
        // `a` looked up the parent's `px` (an alias of its `x`, or another definition that
        // looks `x` up), which failed; the child has an eager `x` of its own, healthy, cancelled
        // by the failure: the failure is still `a`'s, with its path.
        let throughDefinition = ContextError.creationFailed(key: "x", path: ["a", "px", "x"], underlying: DependencyDown())
        let throughAlias = ContextError.creationFailed(key: "x", path: ["a", "x"], underlying: DependencyDown())
        let childCancelled = ContextError.creationFailed(key: "x", path: ["x"], underlying: CancellationError())
        for (error, path) in [(throughDefinition, ["a", "px", "x"]), (throughAlias, ["a", "x"])] {
            let chosen = ContextStart.earliestFailure([
                .init(position: 0, error: error, wasCancelled: false),
                .init(position: 1, error: childCancelled, wasCancelled: true),
            ], eagerPositions: ["a": 0, "x": 1], in: childContext)
            #expect(chosen?.path == path)
        }
    }

    @Test func aChildsDefinitionShadowingEveryNameOfAParentsIsItsOwnStep() {
        // The child answers to every name of the parent's `m` and `dep`, so a step of those
        // keys after one of its own is its own: the rules apply as without a parent.
        let throughM = ContextError.creationFailed(key: "e", path: ["a", "m", "e"], underlying: DependencyDown())
        let own = ContextError.creationFailed(key: "e", path: ["e"], underlying: CancellationError())
        let viaB = ContextError.creationFailed(key: "dep", path: ["b", "dep"], underlying: DependencyDown())
        let aCancelled = ContextError.creationFailed(key: "dep", path: ["a", "dep"], underlying: CancellationError())
        let first = ContextStart.earliestFailure([
            .init(position: 0, error: throughM, wasCancelled: false),
            .init(position: 2, error: own, wasCancelled: true),
        ], eagerPositions: ["a": 0, "b": 1, "e": 2], in: shadowingContext)
        #expect(first?.path == ["e"])
        let second = ContextStart.earliestFailure([
            .init(position: 1, error: viaB, wasCancelled: false),
            .init(position: 0, error: aCancelled, wasCancelled: true),
        ], eagerPositions: ["a": 0, "b": 1], in: shadowingContext)
        #expect(second?.path == ["a", "dep"])
    }

    @Test func anErrorFromAnotherContextAClosureHoldsKeepsItsEagerSingletonsPlace() {
        // `a`'s closure looked up `x` in a context it captured, which failed: the error passes
        // through as that context told it (path `["x"]`), which is not the child's own `x`.
        let foreign = ContextError.creationFailed(key: "x", path: ["x"], underlying: DependencyDown())
        let mOwn = ContextError.creationFailed(key: "m", path: ["m"], underlying: CancellationError())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: mOwn, wasCancelled: false),
            .init(position: 0, error: foreign, wasCancelled: false),
        ], eagerPositions: ["a": 0, "m": 1, "x": 2], in: choiceContext)
        #expect(chosen?.creationFailure?.underlying is DependencyDown)
    }

    @Test func aCancellationErrorAnEagerSingletonThrewOnItsOwnIsTheFailure() {
        // `b` threw `CancellationError()` before anything was cancelled; `a` was cancelled
        // because of it: the start reports `b`'s.
        let aCancelled = ContextError.creationFailed(key: "a", path: ["a"], underlying: CancellationError())
        let bOwn = ContextError.creationFailed(key: "b", path: ["b"], underlying: CancellationError())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: bOwn, wasCancelled: false),
            .init(position: 0, error: aCancelled, wasCancelled: true),
        ], eagerPositions: ["a": 0, "b": 1], in: choiceContext)
        #expect(chosen?.creationFailure?.key == "b")
    }

    @Test func twoGenuineFailuresAreReportedByDeclarationOrder() {
        struct Other: Error {}
        let a = ContextError.creationFailed(key: "a", path: ["a"], underlying: Other())
        let b = ContextError.creationFailed(key: "b", path: ["b"], underlying: DependencyDown())
        let chosen = ContextStart.earliestFailure([.init(position: 1, error: b, wasCancelled: false), .init(position: 0, error: a, wasCancelled: false)], eagerPositions: ["a": 0, "b": 1], in: choiceContext)
        #expect(chosen?.creationFailure?.key == "a")
    }

    @Test func aFailureOfItsOwnAfterTheCancellationDoesNotCount() {
        // `cache` made an error of its own of the cancellation (as `URLSession` does).
        struct ConnectionCancelled: Error {}
        let cancelled = ContextError.creationFailed(key: "cache", path: ["cache"], underlying: ConnectionCancelled())
        let genuine = ContextError.creationFailed(key: "database", path: ["database"], underlying: DependencyDown())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: genuine, wasCancelled: false),
            .init(position: 0, error: cancelled, wasCancelled: true),
        ], eagerPositions: ["cache": 0, "database": 1], in: choiceContext)
        #expect(chosen?.creationFailure?.key == "database")
    }
}
