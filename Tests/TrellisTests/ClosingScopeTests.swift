import Testing
@testable import Trellis
import TrellisTestSupport

// Docs/Lifecycle.md: a task an awaited `dispose()` starts inherits the closing; one a
// synchronous `dispose()` starts does not (its `close()` of the context waits for the close under
// way, as any other caller's does). Asked of the scope itself: whether a task inherited it is
// fixed when the task is made, so the answer does not depend on when it runs.

/// A synchronous `dispose()` that starts a task, which reports whether it is in the closing of
/// the context that made this object (learned from `didInject`).
private final class TaskStartingDisposable: Disposable, InjectionAware, Sendable {
    private let context = Guarded<ApplicationContext?>(nil)
    let started = Guarded<Task<Bool, Never>?>(nil)

    func didInject(from context: ApplicationContext) { self.context.withLock { $0 = context } }

    func dispose() {
        guard let context = context.value else { return }
        let task = Task { ClosingScope.contains(context) }
        started.withLock { $0 = task }
        // Not kept by the object after its disposal (the context would stay alive through it).
        self.context.withLock { $0 = nil }
    }
}

/// Disposed after the starter (made before it): awaits the starter's task, so that the task
/// answers while the close is still under way (once it ends, no scope is open anywhere).
private final class AwaitingDisposable: AsyncDisposable, Sendable {
    let starter: TaskStartingDisposable
    init(_ starter: TaskStartingDisposable) { self.starter = starter }
    func dispose() async { _ = await starter.started.value?.value }
}

private struct TaskStartingFactory: ObjectFactory {
    let starter = TaskStartingDisposable()
    var failsToStart = false
    struct Broken: Error {}

    var definitions: Definitions {
        // An `AsyncDisposable` beside it: the close runs its disposals in a task of its own.
        createEagerSingleton("async") { [starter] in AwaitingDisposable(starter) }
        createEagerSingleton("starter") { [starter] in starter }
        if failsToStart {
            createEagerSingleton("broken") { () throws -> Int in throw Broken() }
        }
    }
}

@Suite struct ClosingScopeTests {
    @Test func aTaskASynchronousDisposeStartsDuringAnAwaitedCloseDoesNotInheritTheClosing() async throws {
        let factory = TaskStartingFactory()
        let context = try await ApplicationContext(factory)
        try await context.close()
        let task = try #require(factory.starter.started.value, "the synchronous dispose() did not run")
        #expect(await task.value == false)
    }

    @Test func aTaskASynchronousDisposeStartsDuringAFailedAsyncStartDoesNotInheritTheClosing() async throws {
        let factory = TaskStartingFactory(failsToStart: true)
        await #expect(throws: ContextError.self) { try await ApplicationContext(factory) }
        let task = try #require(factory.starter.started.value, "the synchronous dispose() did not run")
        #expect(await task.value == false)
    }
}
