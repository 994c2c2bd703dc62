import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a main-actor closure synchronously if, and only if, the caller is already on the main
/// actor.
///
/// "On the main thread" is not the question on Linux, where the main actor's jobs may run on
/// another thread (seen under `swift test`). `Task.immediate` (SE-0472) asks the runtime itself:
/// it runs its operation synchronously when the caller is on the operation's executor, and only
/// enqueues it otherwise. The operation runs the closure only when it finds itself on the
/// caller's thread, which happens only in the synchronous case (the caller's thread is busy in
/// this call until it returns); an enqueued copy returns without running anything. So the
/// closure runs at most once, and only where the caller reads its result in program order.
enum MainActorCall {
    private final class Outcome<T>: @unchecked Sendable {
        // Safe: `result` is written only by the operation running synchronously on the caller's
        // thread, before `Task.immediate` returns to the caller, which then reads it.
        let caller = pthread_self()
        let claimed = Atomic<Bool>(false)
        var result: Result<T, any Error>?
    }

    /// Whether the caller runs on the main actor (a rare question: it costs a task).
    static var isOnMainActor: Bool {
        (try? ifOnMainActor { () }) != nil
    }

    /// Marks the main dispatch queue, once, so code can tell it runs there.
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main dispatch queue, the main actor's executor: also code
    /// outside any task there (a `DispatchQueue.main` callback), which `Task.immediate` does not
    /// recognise, and which on Linux runs on whichever thread drains the main queue.
    private static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Runs `body` here, where the caller is known to be on the main actor.
    private static func runHere<T>(_ body: @MainActor () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        MainActor.assumeIsolated { outcome.result = Result(catching: body) }
        return try outcome.result!.get()
    }

    /// `body`'s result, or `nil` when the caller is not on the main actor (nothing ran).
    static func ifOnMainActor<T>(_ body: @escaping @MainActor @Sendable () throws -> T) throws -> T? {
        if isOnMainQueue { return try runHere(body) }
        #if canImport(Darwin)
        guard #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) else {
            // Before Task.immediate, Apple platforms run the main actor on the main thread only.
            guard pthread_main_np() != 0 else { return nil }
            return try runHere(body)
        }
        #endif
        let outcome = Outcome<T>()
        Task.immediate { @MainActor in
            // An enqueued copy runs on the main actor's thread after the caller moved on: it
            // must not run the closure, whose result nobody would read.
            guard pthread_equal(pthread_self(), outcome.caller) != 0,
                  outcome.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            outcome.result = Result(catching: body)
        }
        if outcome.claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            return nil
        }
        return try outcome.result!.get()
    }
}
