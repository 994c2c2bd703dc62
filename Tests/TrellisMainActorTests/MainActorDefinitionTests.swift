import Testing
import Trellis

// This module is built with default main-actor isolation (Swift 6.2, the default for new Xcode
// apps): every class below is implicitly @MainActor, as in an app target.

final class ViewModel {
    let api: API
    init(api: API) { self.api = api }
}

final class API {}

final class Screen {
    var title = "home"
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorSingleton("api") { API() }
        createMainActorSingleton("viewModel") { r in ViewModel(api: try r.object("api")) }
        createMainActorPrototype("screen") { Screen() }
    }
}

struct EagerFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorEagerSingleton("api") { API() }
    }
}

@Test func mainActorSingletonIsMadeOnTheMainActor() throws {
    let context = try ApplicationContext(AppFactory())
    let viewModel: ViewModel = try context.object("viewModel")
    #expect(viewModel.api === (try context.object("api", as: API.self)))
}

@Test func mainActorPrototypeIsNewEachTime() throws {
    let context = try ApplicationContext(AppFactory())
    let first: Screen = try context.object("screen")
    let second: Screen = try context.object("screen")
    #expect(first !== second)
}

@Test func eagerMainActorSingletonStartsOnTheMainActor() throws {
    let context = try ApplicationContext(EagerFactory())
    #expect(context.startupReport.entries.map(\.key) == ["api"])
}

@Test func mainActorDefinitionAskedOffTheMainThreadFailsClearly() async throws {
    let context = try ApplicationContext(AppFactory())
    let error = await Task.detached { () -> ContextError? in
        do throws(ContextError) {
            _ = try context.object("api", as: API.self)
            return nil
        } catch {
            return error
        }
    }.value
    let failure = try #require(error)
    guard case let .creationFailed(key, _, underlying) = failure else {
        Issue.record("expected creationFailed, got \(failure)")
        return
    }
    #expect(key == "api")
    #expect(underlying is MainActorRequired)
    #expect(failure.description.contains("main actor"))
}

@Test func madeMainActorSingletonIsReturnedToAnyThread() async throws {
    let context = try ApplicationContext(AppFactory())
    let api: API = try context.object("api")
    let sameIdentity = await Task.detached { () -> ObjectIdentifier? in
        (try? context.object("api", as: API.self)).map(ObjectIdentifier.init)
    }.value
    #expect(sameIdentity == ObjectIdentifier(api))
}
