import Testing
@testable import Trellis

// Docs/Async.md, "When one fails": which failure a concurrent start throws, asked of the rule
// itself: whether a failure ended before or after the start was cancelled depends on timing, so
// a start run in a loop shows a wrong choice only now and then.

private struct DependencyDown: Error {}

@Suite struct StartFailureChoiceTests {
    @Test func aGenuineFailureReachedThroughALookupAfterTheCancellationStillCountsByDeclarationOrder() {
        // `first` looked up `dep`, which failed on its own; `first`'s failure, the same one seen
        // through its lookup, ended after the start was cancelled. Declared first, it is the
        // start's failure every time, whichever ended first.
        let throughLookup = ContextError.creationFailed(key: "dep", path: ["first", "dep"], underlying: DependencyDown())
        let own = ContextError.creationFailed(key: "dep", path: ["dep"], underlying: DependencyDown())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: own, isCancellation: false),
            .init(position: 0, error: throughLookup, isCancellation: true),
        ])
        #expect(chosen?.path == ["first", "dep"])
    }

    @Test func aFailureOfItsOwnAfterTheCancellationDoesNotCount() {
        // `cache` made an error of its own of the cancellation (as `URLSession` does).
        struct ConnectionCancelled: Error {}
        let cancelled = ContextError.creationFailed(key: "cache", path: ["cache"], underlying: ConnectionCancelled())
        let genuine = ContextError.creationFailed(key: "database", path: ["database"], underlying: DependencyDown())
        let chosen = ContextStart.earliestFailure([
            .init(position: 1, error: genuine, isCancellation: false),
            .init(position: 0, error: cancelled, isCancellation: true),
        ])
        #expect(chosen?.creationFailure?.key == "database")
    }
}
