import Foundation
import Testing
import Trellis
import TrellisTestSupport

// Docs/AppTarget.md: a main-actor conformance is disposed (and notified) on the main actor by
// every form of close, whichever route the close takes: inline, in a task of its own (an
// `AsyncDisposable` beside it, a cancelled closer, a failed start), or under a timeout. A cast
// on the main actor succeeds for such an object, so the route must follow the conformance, not
// the cast. The conformances below are this target's default: isolated to the main actor.

/// An `AsyncDisposable` usable on any actor, beside the main-actor ones.
nonisolated final class PlainConnection: AsyncDisposable {
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
    func dispose() async { events.record("connection closed") }
}

nonisolated struct MixedEditorFactory: ObjectFactory {
    let events: AppEvents
    /// A synchronous eager singleton that throws: the start fails after making the others.
    var failsToStart = false
    struct Broken: Error {}
    var definitions: Definitions {
        createMainActorEagerSingleton("undo") { [events] in UndoHistory(events: events) }
        createEagerSingleton("connection") { [events] () async -> PlainConnection in PlainConnection(events: events) }
        if failsToStart {
            createEagerSingleton("network") { () throws -> Int in throw Broken() }
        }
    }
}

@globalActor actor PrinterActor {
    static let shared = PrinterActor()
}

/// Injection-aware on another global actor, which the context cannot reach.
nonisolated final class PrintQueue {
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
}

extension PrintQueue: @PrinterActor InjectionAware {
    @PrinterActor func didInject(from context: ApplicationContext) { events.record("print queue injected") }
}

/// Disposable on another global actor, which the context cannot reach.
nonisolated final class Spooler {
    let events: AppEvents
    init(events: AppEvents) { self.events = events }
}

extension Spooler: @PrinterActor Disposable {
    @PrinterActor func dispose() { events.record("spooler disposed") }
}

nonisolated struct PrinterFactory: ObjectFactory {
    let events: AppEvents
    var definitions: Definitions {
        createSingleton("printQueue") { [events] in PrintQueue(events: events) }
        createSingleton("spooler") { [events] in Spooler(events: events) }
        createSingleton("spoolerOrNil") { [events] () -> Spooler? in Spooler(events: events) }
    }
}

/// The bodies of the exit tests, on the main actor (this target's default): each closes a
/// context whose main-actor `UndoHistory` asserts it is disposed there (a regression stops the
/// child process) and exits with 1 when a disposal is missing.
func closeOnTheMainActorBesideAnAsyncDisposal() async {
    let events = AppEvents()
    guard let context = try? await ApplicationContext(MixedEditorFactory(events: events)) else { exit(2) }
    guard (try? await context.close()) != nil else { exit(3) }
    if events.all != ["undo flushed", "connection closed"] { print(events.all); exit(1) }
}

func boundedCloseOnTheMainActor() async {
    let events = AppEvents()
    guard let context = try? await ApplicationContext(MixedEditorFactory(events: events)) else { exit(2) }
    guard (try? await context.close(timeout: .seconds(3600))) != nil else { exit(3) }
    if Set(events.all) != ["connection closed", "undo flushed"] { print(events.all); exit(1) }
}

func closeOnTheMainActorInACancelledTask() async {
    let events = AppEvents()
    guard let context = try? await ApplicationContext(MixedEditorFactory(events: events)) else { exit(2) }
    withUnsafeCurrentTask { $0?.cancel() }
    guard (try? await context.close()) != nil else { exit(3) }
    if events.all != ["undo flushed", "connection closed"] { print(events.all); exit(1) }
}

func failedStartOnTheMainActor() async {
    let events = AppEvents()
    guard (try? await ApplicationContext(MixedEditorFactory(events: events, failsToStart: true))) == nil else { exit(2) }
    // The failed start hands what it disposes to a task: waited for by its effect.
    let disposed = Guarded(false)
    while !disposed.value {
        await Task.yield()
        disposed.withLock { $0 = events.all.count == 2 }
    }
    if Set(events.all) != ["connection closed", "undo flushed"] { print(events.all); exit(1) }
}

@Suite struct MainActorDisposalRouteTests {
    @Test nonisolated func anAwaitedCloseOnTheMainActorDisposesAMainActorDisposableThereWhateverRouteItTakes() async {
        await #expect(processExitsWith: .success) { await closeOnTheMainActorBesideAnAsyncDisposal() }
        await #expect(processExitsWith: .success) { await boundedCloseOnTheMainActor() }
        await #expect(processExitsWith: .success) { await closeOnTheMainActorInACancelledTask() }
        await #expect(processExitsWith: .success) { await failedStartOnTheMainActor() }
    }

    @Test nonisolated func didInjectIsolatedToAnotherGlobalActorFailsInsteadOfRunningOnTheWrongActor() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(PrinterFactory(events: events))
        var errors: [ContextError] = []
        do { _ = try await context.object("printQueue", as: PrintQueue.self) } catch { errors.append(error) }
        // On the main actor, where a cast to the class-bound protocol succeeds whatever the isolation.
        if let error = await MainActor.run(body: { () -> ContextError? in
            do throws(ContextError) { _ = try context.object("printQueue", as: PrintQueue.self) } catch { return error }
            return nil
        }) { errors.append(error) }
        #expect(errors.count == 2)
        for error in errors {
            guard case let .creationFailed(key, _, underlying) = error else {
                Issue.record("expected creationFailed, got \(error)")
                continue
            }
            #expect(key == "printQueue")
            #expect(underlying is ConformanceIsolated)
        }
        #expect(events.all.isEmpty, "didInject ran on an actor it is not isolated to")
    }

    @Test func aSynchronousCloseOnTheMainActorReportsADisposableOfAnotherActorInsteadOfRefusing() throws {
        let events = AppEvents()
        let context = try ApplicationContext(PrinterFactory(events: events))
        _ = try context.object("spooler", as: Spooler.self)
        _ = try context.object("spoolerOrNil", as: Spooler?.self)
        var failures: [ContextError.DisposalFailure] = []
        do throws(ContextError) { try context.close() } catch {
            guard case let .disposalFailed(_, reported) = error else {
                Issue.record("expected disposalFailed, got \(error)")
                return
            }
            failures = reported
        }
        #expect(failures.map(\.key) == ["spoolerOrNil", "spooler"])
        // Named by the type that conforms (not its optional), with advice that fits another actor.
        for failure in failures {
            #expect(failure.error.hasPrefix("TrellisMainActorTests.Spooler conforms to Disposable only on a global actor other than the main actor"), "\(failure.error)")
            #expect(!failure.error.contains("createMainActorSingleton"), "\(failure.error)")
        }
        #expect(events.all.isEmpty)
        // Closed: nothing was skipped silently, and the failure was reported.
        #expect(throws: ContextError.contextClosed(context: "PrinterFactory", key: "spooler")) { try context.object("spooler", as: Spooler.self) }
    }

    @Test nonisolated func aSynchronousCloseOffTheMainActorOfAMainActorAsyncDisposableSaysToAwait() async throws {
        let events = AppEvents()
        let context = try await ApplicationContext(EditorFactory(events: events))
        _ = try await context.object("autosave", as: Autosave.self)
        let error = closeSynchronously(context)
        // The fix is to await the close, not to call it from the main actor, where it is refused too.
        #expect(error == .requiresAwait(key: "autosave", path: ["close()", "autosave"]))
        try await context.close()
        #expect(events.all == ["autosave written"])
    }

    @Test nonisolated func aTypeMismatchOfAnIsolatedConformanceReadsAsOneSentence() async throws {
        let context = try await ApplicationContext(LooseDraftsFactory())
        let error = try #require(await lookUpErrorOffTheMainActor(context))
        #expect(error.description.contains("LooseDraft, which conforms only on the main actor"), "\(error)")
        #expect(!error.description.contains(",,"), "\(error)")
    }
}

/// What a synchronous lookup of `loose` as `any Saving` off the main actor threw.
nonisolated func lookUpErrorOffTheMainActor(_ context: ApplicationContext) async -> ContextError? {
    await Task.detached { () -> ContextError? in
        do throws(ContextError) { _ = try context.object("loose", as: (any Saving).self) } catch { return error }
        return nil
    }.value
}
