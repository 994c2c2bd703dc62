import Synchronization

#if canImport(Darwin)
import Darwin
#endif

/// Runs a main-actor closure synchronously if, and only if, the caller is already on the main
/// actor.
///
/// "On the main thread" is not the question on Linux, where the main actor's jobs may run on
/// another thread (seen under `swift test`). `Task.immediate` (SE-0472) asks the runtime itself:
/// it runs its operation synchronously when the caller is on the operation's executor, and only
/// enqueues it otherwise. Both sides race to claim the work, so it runs at most once: either
/// synchronously here, or not at all (the enqueued copy finds it claimed and returns).
enum MainActorCall {
    private final class Outcome<T>: @unchecked Sendable {
        // Safe: `result` is written by whichever side wins `claimed` (compare-exchange), before
        // the caller reads it, and only in the synchronous case, on the caller's own stack.
        let claimed = Atomic<Bool>(false)
        var result: Result<T, any Error>?
    }

    /// `body`'s result, or `nil` when the caller is not on the main actor (nothing ran).
    static func ifOnMainActor<T>(_ body: @escaping @MainActor @Sendable () throws -> T) throws -> T? {
        #if canImport(Darwin)
        guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else {
            // Before Task.immediate, Apple platforms run the main actor on the main thread only.
            guard pthread_main_np() != 0 else { return nil }
            return try MainActor.assumeIsolated { try Result(catching: body) }.get()
        }
        #endif
        let outcome = Outcome<T>()
        Task.immediate { @MainActor in
            guard outcome.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            outcome.result = Result(catching: body)
        }
        if outcome.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            return nil
        }
        return try outcome.result?.get()
    }
}
