import Dispatch
import Foundation
import Testing
import Trellis
import TrellisTestSupport

// Docs/Concurrency.md: code on the main actor outside any task (a `DispatchQueue.main`
// callback, a timer) is on the main actor too: a main-actor definition is made there, and a
// lookup there never blocks for a lookup waiting to hop onto the main actor.

final class QueueModel {}

final class QueueUser {
    @Inject var model: QueueModel
    nonisolated init() {}
}

nonisolated struct QueueFactory: ObjectFactory {
    /// `model`'s closure is async (it runs on the main actor all the same).
    var asyncModel = false
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)
    var definitions: Definitions {
        if asyncModel {
            createMainActorSingleton("model") { () async in QueueModel() }
        } else {
            createMainActorSingleton("model") { QueueModel() }
        }
        createSingleton("user") { [entered, release] () -> QueueUser in
            entered.countDown()
            release.wait()
            return QueueUser()
        }
    }
}

/// Runs `body` on the main queue, outside any task, and hands back what it returns.
nonisolated func onTheMainQueue<R: Sendable>(_ body: @escaping @MainActor @Sendable () -> R) async -> R {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume(returning: MainActor.assumeIsolated { body() }) }
    }
}

/// Waits for `latch` on a thread of its own, never a thread of the pool; `false` if the hang
/// guard gave up (the process stopped making progress), never because of a clock.
nonisolated func opensWithoutHanging(_ latch: ConcurrencyLatch) async -> Bool {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: latch.wait()) }.start()
    }
}

/// The body of the exit test: `user` is made off the main actor by an awaited lookup, whose
/// injection must hop onto the main actor for `model` (made by a synchronous or an async
/// main-actor closure); the main queue asks for `user` meanwhile. Exits with 0 when the main
/// queue's lookup came after `user` was made or was told to await, never handed a `user` whose
/// `model` is not injected yet; with 1 when the two waited for each other (a regression blocks
/// the main queue for good, which would hold every later main-actor test: hence a child process).
nonisolated func mainQueueLookupDuringAHopOntoTheMainActor(asyncModel: Bool) async {
    let factory = QueueFactory(asyncModel: asyncModel)
    guard let context = try? await ApplicationContext(factory) else { exit(2) }
    let maker = Task.detached { try await context.object("user", as: QueueUser.self) }
    // The maker's closure holds a thread of the pool until `release`: everything that leads
    // there runs on a thread of its own.
    let answered = ConcurrencyLatch(count: 1)
    let answer = Guarded<String>("")
    Thread {
        guard factory.entered.wait() else { return answered.countDown() }
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                do throws(ContextError) {
                    let user = try context.object("user", as: QueueUser.self)
                    answer.withLock { $0 = (try? user.$model.get()) == nil ? "a user not injected yet" : "an injected user" }
                } catch {
                    // The message says why a synchronous call cannot have it.
                    let saysWhy = "\(error)".contains("waiting to run on the main actor")
                    answer.withLock { $0 = if case .requiresAwait = error, saysWhy { "requiresAwait" } else { "\(error)" } }
                }
            }
            answered.countDown()
        }
        factory.release.countDown()
    }.start()
    guard await opensWithoutHanging(answered) else {
        print("the main queue and the lookup hopping onto it waited for each other")
        exit(1)
    }
    guard ["an injected user", "requiresAwait"].contains(answer.value) else {
        print("answered \(answer.value)")
        exit(3)
    }
    guard let user = try? await maker.value, let model = try? await context.object("model", as: QueueModel.self) else { exit(4) }
    guard await MainActor.run(body: { user.model === model }) else { exit(5) }
}

@Suite struct MainQueueTests {
    @Test nonisolated func aMainActorSingletonIsMadeOnTheMainQueueOutsideATask() async throws {
        let context = try await ApplicationContext(QueueFactory())
        let made = await onTheMainQueue { () -> Bool in (try? context.object("model", as: QueueModel.self)) != nil }
        #expect(made)
    }

    /// Docs/Concurrency.md: a lookup on the main queue never waits for a lookup waiting to hop
    /// onto the main actor, nor gets its half-injected object. With a synchronous and an async
    /// main-actor closure for `model`.
    @Test nonisolated func aLookupOnTheMainQueueNeverWaitsForALookupWaitingToHopThere() async {
        await #expect(processExitsWith: .success) {
            await mainQueueLookupDuringAHopOntoTheMainActor(asyncModel: false)
        }
        await #expect(processExitsWith: .success) {
            await mainQueueLookupDuringAHopOntoTheMainActor(asyncModel: true)
        }
    }
}
