import Trellis

/// A factory split over three files, one group per file, as the README's `AppFactory` is.
struct SplitFactory: ObjectFactory {
    var definitions: Definitions {
        general
        services
        repositories
    }
}

/// The configuration object of `SplitFactory`.
struct SplitSettings: Sendable {
    let environment: String
}

extension SplitFactory {
    @DefinitionsBuilder var general: Definitions {
        createEagerSingleton("settings") { SplitSettings(environment: "test") }
    }
}
