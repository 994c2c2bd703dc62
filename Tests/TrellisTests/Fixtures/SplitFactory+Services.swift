import Trellis

/// A service of `SplitFactory`, made from its repository.
final class SplitUserService: Sendable {
    let repository: SplitUserRepository
    init(repository: SplitUserRepository) { self.repository = repository }
}

extension SplitFactory {
    @DefinitionsBuilder var services: Definitions {
        createSingleton("userService") { r in SplitUserService(repository: try r.object("userRepository")) }
        aliases(for: "userService", "users")
    }
}
