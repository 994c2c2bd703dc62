import Foundation
import Testing
import Trellis
import TrellisTestSupport

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

/// Runs `body` on a new thread, never the main one, and waits for it; `nil` if the hang guard
/// gave up (the process stopped making progress: a deadlock), never because of a clock.
nonisolated func onAnotherThread<R: Sendable>(_ body: @escaping @Sendable () -> R) -> R? {
    let outcome = Guarded<R?>(nil)
    let done = ConcurrencyLatch(count: 1)
    Thread {
        let value = body()
        outcome.withLock { $0 = value }
        done.countDown()
    }.start()
    guard done.wait() else { return nil }
    return outcome.value
}

@Test func mainActorDefinitionAskedOffTheMainActorFailsClearly() throws {
    let context = try ApplicationContext(AppFactory())
    let error = onAnotherThread { () -> ContextError? in
        do throws(ContextError) {
            _ = try context.object("api", as: API.self)
            return nil
        } catch {
            return error
        }
    }
    let failure = try #require(error ?? nil)
    guard case let .creationFailed(key, _, underlying) = failure else {
        Issue.record("expected creationFailed, got \(failure)")
        return
    }
    #expect(key == "api")
    #expect(underlying is MainActorRequired)
    #expect(failure.description.contains("main actor"))
}

@Test func madeMainActorSingletonIsReturnedToAnyThread() throws {
    let context = try ApplicationContext(AppFactory())
    let api: API = try context.object("api")
    let sameIdentity = onAnotherThread { () -> ObjectIdentifier? in
        (try? context.object("api", as: API.self)).map(ObjectIdentifier.init)
    } ?? nil
    #expect(sameIdentity == ObjectIdentifier(api))
}
