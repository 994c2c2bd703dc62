import Foundation
import Synchronization
import Testing
import Trellis

// Default main-actor isolation: every class here is @MainActor unless marked `nonisolated`, as
// in an app target. The tests marked `nonisolated` run off the main actor and reach main-actor
// definitions through the async forms, which hop to the main actor to make them.

final class AsyncAPI {
    /// Whether its initialiser ran isolated to the main actor. Checked by the runtime, not by
    /// comparing threads: under `swift test` on Linux the main actor's jobs do not always run on
    /// one thread, so a thread taken later says nothing.
    let madeOnTheMainActor: Bool

    init() {
        // Stops the test process if the library ran this initialiser off the main actor.
        MainActor.assertIsolated("a main-actor definition was made off the main actor")
        madeOnTheMainActor = true
    }
}

extension AsyncAPI {
    nonisolated func wasMadeOnTheMainActor() async -> Bool {
        await MainActor.run { madeOnTheMainActor }
    }
}

final class AsyncViewModel {
    let api: AsyncAPI
    init(api: AsyncAPI) { self.api = api }
}

protocol AsyncScreenProtocol: AnyObject {}
final class AsyncScreen: AsyncScreenProtocol {}

/// How often the main-actor closures ran, readable from any isolation.
nonisolated final class MainActorRuns: Sendable {
    let api = Atomic<Int>(0)
    let screens = Atomic<Int>(0)
}

nonisolated struct AsyncMainActorFactory: ObjectFactory {
    let runs = MainActorRuns()

    var definitions: Definitions {
        createMainActorSingleton("api") { [runs] in
            runs.api.add(1, ordering: .sequentiallyConsistent)
            return AsyncAPI()
        }
        createMainActorSingleton("viewModel") { r in AsyncViewModel(api: try r.object("api")) }
        createMainActorPrototype("screen") { [runs] in
            runs.screens.add(1, ordering: .sequentiallyConsistent)
            return AsyncScreen() as any AsyncScreenProtocol
        }
        // An async definition that awaits a main-actor one.
        createSingleton("apiHolder") { r async throws -> [AsyncAPI] in [try await r.object("api")] }
    }
}

nonisolated struct AsyncMainActorEagerFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorEagerSingleton("api") { AsyncAPI() }
        createMainActorEagerSingleton("viewModel") { r in AsyncViewModel(api: try r.object("api")) }
        createEagerSingleton("config") { () async -> [Int] in
            await Task.yield()
            return [1]
        }
    }
}

/// Whether the caller runs on the main thread, asked from a synchronous nonisolated function.
nonisolated func callerIsOnMainThread() -> Bool { Thread.isMainThread }

@Suite struct AsyncMainActorTests {
    @Test nonisolated func asyncLookupOffTheMainActorHopsToTheMainActorToMakeASingleton() async throws {
        #expect(!callerIsOnMainThread())
        let factory = AsyncMainActorFactory()
        let context = try await ApplicationContext(factory)
        let viewModel: AsyncViewModel = try await context.object("viewModel")
        let api: AsyncAPI = try await context.object("api")
        #expect(viewModel.api === api)
        #expect(await api.wasMadeOnTheMainActor())
        #expect(factory.runs.api.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test nonisolated func asyncLookupOffTheMainActorHopsToTheMainActorForEachPrototype() async throws {
        let factory = AsyncMainActorFactory()
        let context = try await ApplicationContext(factory)
        let first: any AsyncScreenProtocol = try await context.object("screen")
        let second: any AsyncScreenProtocol = try await context.object("screen")
        #expect(first !== second)
        #expect(factory.runs.screens.load(ordering: .sequentiallyConsistent) == 2)
    }

    @Test nonisolated func asyncClosureAwaitingAMainActorDefinitionGetsIt() async throws {
        let context = try await ApplicationContext(AsyncMainActorFactory())
        let holder: [AsyncAPI] = try await context.object("apiHolder")
        #expect(holder.first === (try await context.object("api", as: AsyncAPI.self)))
    }

    @Test nonisolated func asyncLookupsByTypeOffTheMainActorHopToTheMainActor() async throws {
        let context = try await ApplicationContext(AsyncMainActorFactory())
        let api: AsyncAPI = try await context.object(of: AsyncAPI.self)
        #expect(await api.wasMadeOnTheMainActor())
        let screens: [any AsyncScreenProtocol] = try await context.objects(of: (any AsyncScreenProtocol).self)
        #expect(screens.count == 1)
    }

    @Test nonisolated func asyncInitOffTheMainActorHopsToStartMainActorEagerSingletons() async throws {
        #expect(!callerIsOnMainThread())
        let context = try await ApplicationContext(AsyncMainActorEagerFactory())
        #expect(Set(context.startupReport.entries.map(\.key)) == ["api", "viewModel", "config"])
        let api: AsyncAPI = try await context.object("api")
        #expect(await api.wasMadeOnTheMainActor())
        #expect(try await context.object("viewModel", as: AsyncViewModel.self).api === api)
    }

    @Test func asyncFormsFromTheMainActorMakeMainActorDefinitionsInPlace() async throws {
        let context = try await ApplicationContext(AsyncMainActorEagerFactory())
        let api: AsyncAPI = try await context.object("api")
        #expect(await api.wasMadeOnTheMainActor())
        let lazy = try await ApplicationContext(AsyncMainActorFactory())
        let viewModel: AsyncViewModel = try await lazy.object("viewModel")
        #expect(await viewModel.api.wasMadeOnTheMainActor())
    }

    @Test nonisolated func asyncInjectOffTheMainActorFillsPropertiesNamingMainActorDefinitions() async throws {
        let context = try await ApplicationContext(AsyncMainActorFactory())
        let holder = MainActorHolder()
        try await context.inject(into: holder)
        #expect(await holder.api.wasMadeOnTheMainActor())
    }
}

final class MainActorHolder {
    @Inject var api: AsyncAPI
}
