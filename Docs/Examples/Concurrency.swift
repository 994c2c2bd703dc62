// Support for the code of Docs/Concurrency.md, checked by .ci/check-docs: main-actor types, as
// an app's view layer declares them.
final class APIClient: Sendable {}

@MainActor final class ViewModel {
    let api: APIClient
    init(api: APIClient) { self.api = api }
}

@MainActor final class Router {}

@MainActor final class Screen {}
