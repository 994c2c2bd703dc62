import Trellis

/// A repository of `SplitFactory`, made from its settings.
final class SplitUserRepository: Sendable {
    let settings: SplitSettings
    init(settings: SplitSettings) { self.settings = settings }
}

extension SplitFactory {
    @DefinitionsBuilder var repositories: Definitions {
        createPrototype("userRepository") { r in SplitUserRepository(settings: try r.object("settings")) }
    }
}
