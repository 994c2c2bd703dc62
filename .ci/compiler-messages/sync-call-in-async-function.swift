// Docs/CHANGELOG.md quotes this message (0.2.0, "Breaking"): the async forms keep the synchronous
// names, so in an async function Swift picks them, and a call written as in 0.1.0, without
// `await`, no longer compiles. A synchronous helper keeps the synchronous forms.
import Trellis

final class Clock: Sendable {}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("clock") { Clock() }
    }
}

func start() async throws -> Clock {
    let app = try ApplicationContext(AppFactory())               // expect error: expression is 'async' but is not marked with 'await'
    return try app.object("clock", as: Clock.self)               // expect error: expression is 'async' but is not marked with 'await'
}

func validateInTest() async -> Bool {
    ApplicationContext.validate(AppFactory()).isValid            // expect error: expression is 'async' but is not marked with 'await'
}

func startFixed() async throws -> Clock {
    let app = try await ApplicationContext(AppFactory())
    return try await app.object("clock", as: Clock.self)
}

func startSynchronously() throws -> ApplicationContext {
    try ApplicationContext(AppFactory())
}

func caller() async throws -> ApplicationContext {
    try startSynchronously()
}
