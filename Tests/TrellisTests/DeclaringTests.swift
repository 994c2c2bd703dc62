import Testing
import Trellis

// MARK: - Fixtures

private final class DeclaringService: Sendable {
    let name: String
    init(_ name: String = "service") { self.name = name }
}

private struct DeclaringShapeFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { DeclaringService("clock") }
        createSingleton("mailer") { r in DeclaringService("mailer \(try r.object("clock", as: DeclaringService.self).name)") }
            .aliases("mailService", "postman")
        createPrototype("request") { DeclaringService("request") }
        aliases(for: "mailer", "_mailer")
        aliases(for: "request", "req")
    }
}

private enum DeclaringFlavor: Sendable { case plain, fancy, none }

private struct DeclaringControlFlowFactory: ObjectFactory {
    let useFake: Bool
    let flavor: DeclaringFlavor
    let workers: [String]
    let withExtra: Bool

    var definitions: Definitions {
        if useFake {
            createSingleton("store") { DeclaringService("fake store") }
        } else {
            createSingleton("store") { DeclaringService("real store") }
        }
        switch flavor {
        case .plain:
            createPrototype("flavor") { DeclaringService("plain") }
        case .fancy:
            createPrototype("flavor") { DeclaringService("fancy") }
        case .none:
            Definitions()
        }
        for worker in workers {
            createSingleton(worker) { DeclaringService(worker) }
        }
        extra
    }

    /// A `Definition?` expression in the builder.
    var extra: Definition? {
        withExtra ? createSingleton("extra") { DeclaringService("extra") } : nil
    }
}

private struct DeclaringOptionalGroupFactory: ObjectFactory {
    let group: Definitions?
    var definitions: Definitions {
        createSingleton("first") { DeclaringService("first") }
        group
    }
}

private struct DeclaringSharedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("shared") { DeclaringService("shared") }
        createPrototype("sharedTool") { DeclaringService("tool") }
    }
}

private struct DeclaringComposedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("own") { DeclaringService("own") }
        DeclaringSharedFactory().definitions
        outer
    }

    @DefinitionsBuilder var outer: Definitions {
        createSingleton("outerA") { DeclaringService("outerA") }
        inner
        createSingleton("outerB") { DeclaringService("outerB") }
    }

    @DefinitionsBuilder var inner: Definitions {
        createSingleton("innerA") { DeclaringService("innerA") }
        createPrototype("innerB") { DeclaringService("innerB") }
    }
}

private struct DeclaringClosureFormsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("singletonPlain") { DeclaringService("singletonPlain") }
        createSingleton("singletonResolving") { r in DeclaringService("got \(try r.object("singletonPlain", as: DeclaringService.self).name)") }
        createEagerSingleton("eagerPlain") { DeclaringService("eagerPlain") }
        createEagerSingleton("eagerResolving") { r in DeclaringService("got \(try r.object("eagerPlain", as: DeclaringService.self).name)") }
        createPrototype("prototypePlain") { DeclaringService("prototypePlain") }
        createPrototype("prototypeResolving") { r in DeclaringService("got \(try r.object("prototypePlain", as: DeclaringService.self).name)") }
    }
}

private struct DeclaringPlainNameFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("x") { 1 }
    }
}

private struct DeclaringRenamedFactory: ObjectFactory {
    var contextName: String { "Renamed" }
    var definitions: Definitions {
        createSingleton("x") { 1 }
    }
}

private struct DeclaringConfiguredFactory: ObjectFactory {
    let baseURL: String

    var definitions: Definitions {
        createSingleton("endpoint") { [baseURL] in endpoint(baseURL, "users") }
    }

    /// A helper method: not a definition.
    func endpoint(_ base: String, _ path: String) -> String { "\(base)/\(path)" }
}

// MARK: - Tests

@Suite struct DeclaringTests {
    @Test func definitionsListKeysInDeclarationOrder() {
        #expect(DeclaringShapeFactory().definitions.keys == ["clock", "mailer", "request"])
    }

    @Test func definitionsReportEachScopeAndNilForUnknownKeys() {
        let definitions = DeclaringShapeFactory().definitions
        #expect(definitions.scope(of: "clock") == .eagerSingleton)
        #expect(definitions.scope(of: "mailer") == .singleton)
        #expect(definitions.scope(of: "request") == .prototype)
        #expect(definitions.scope(of: "missing") == nil)
        #expect(definitions.scope(of: "MAILER") == nil)
    }

    @Test func definitionsListExplicitAliasesFromTheModifierAndFromAliasesFor() {
        let definitions = DeclaringShapeFactory().definitions
        #expect(definitions.aliases(of: "mailer") == ["mailService", "postman", "_mailer"])
        #expect(definitions.aliases(of: "request") == ["req"])
    }

    @Test func definitionsDoNotListDefaultAliases() {
        let definitions = DeclaringShapeFactory().definitions
        #expect(definitions.aliases(of: "clock").isEmpty)
        #expect(!definitions.aliases(of: "mailer").contains("MAILER"))
    }

    @Test func ifElseTakesTheChosenBranchOnly() throws {
        let fake = DeclaringControlFlowFactory(useFake: true, flavor: .none, workers: [], withExtra: false)
        let real = DeclaringControlFlowFactory(useFake: false, flavor: .none, workers: [], withExtra: false)
        #expect(fake.definitions.keys == ["store"])
        #expect(try ApplicationContext(fake).object("store", as: DeclaringService.self).name == "fake store")
        #expect(try ApplicationContext(real).object("store", as: DeclaringService.self).name == "real store")
    }

    @Test func switchTakesTheMatchingCase() throws {
        let plain = DeclaringControlFlowFactory(useFake: true, flavor: .plain, workers: [], withExtra: false)
        let fancy = DeclaringControlFlowFactory(useFake: true, flavor: .fancy, workers: [], withExtra: false)
        let none = DeclaringControlFlowFactory(useFake: true, flavor: .none, workers: [], withExtra: false)
        #expect(plain.definitions.scope(of: "flavor") == .prototype)
        #expect(try ApplicationContext(plain).object("flavor", as: DeclaringService.self).name == "plain")
        #expect(try ApplicationContext(fancy).object("flavor", as: DeclaringService.self).name == "fancy")
        #expect(none.definitions.keys == ["store"])
    }

    @Test func forInAddsOneDefinitionPerIterationInOrder() throws {
        let factory = DeclaringControlFlowFactory(useFake: true, flavor: .none, workers: ["w1", "w2", "w3"], withExtra: false)
        #expect(factory.definitions.keys == ["store", "w1", "w2", "w3"])
        let context = try ApplicationContext(factory)
        #expect(try context.object("w2", as: DeclaringService.self).name == "w2")
    }

    @Test func optionalDefinitionIsAddedOnlyWhenPresent() throws {
        let with = DeclaringControlFlowFactory(useFake: true, flavor: .none, workers: [], withExtra: true)
        let without = DeclaringControlFlowFactory(useFake: true, flavor: .none, workers: [], withExtra: false)
        #expect(with.definitions.keys == ["store", "extra"])
        #expect(without.definitions.keys == ["store"])
        #expect(try ApplicationContext(with).object("extra", as: DeclaringService.self).name == "extra")
    }

    @Test func optionalGroupIsAddedOnlyWhenPresent() {
        let group = DeclaringSharedFactory().definitions
        #expect(DeclaringOptionalGroupFactory(group: group).definitions.keys == ["first", "shared", "sharedTool"])
        #expect(DeclaringOptionalGroupFactory(group: nil).definitions.keys == ["first"])
    }

    @Test func nestedGroupsAndAnotherFactorysDefinitionsKeepDeclarationOrder() {
        #expect(DeclaringComposedFactory().definitions.keys == [
            "own", "shared", "sharedTool", "outerA", "innerA", "innerB", "outerB",
        ])
        #expect(DeclaringComposedFactory().definitions.scope(of: "sharedTool") == .prototype)
        #expect(DeclaringComposedFactory().definitions.scope(of: "innerB") == .prototype)
    }

    @Test func anotherFactorysDefinitionsResolveInTheComposedContext() throws {
        let context = try ApplicationContext(DeclaringComposedFactory())
        #expect(context.name == "DeclaringComposedFactory")
        #expect(try context.object("shared", as: DeclaringService.self).name == "shared")
        #expect(try context.object("SHAREDTOOL", as: DeclaringService.self).name == "tool")
        #expect(try context.object("innerA", as: DeclaringService.self).name == "innerA")
    }

    @Test func eachCreatorDeclaresItsScopeInBothClosureForms() {
        let definitions = DeclaringClosureFormsFactory().definitions
        #expect(definitions.scope(of: "singletonPlain") == .singleton)
        #expect(definitions.scope(of: "singletonResolving") == .singleton)
        #expect(definitions.scope(of: "eagerPlain") == .eagerSingleton)
        #expect(definitions.scope(of: "eagerResolving") == .eagerSingleton)
        #expect(definitions.scope(of: "prototypePlain") == .prototype)
        #expect(definitions.scope(of: "prototypeResolving") == .prototype)
    }

    @Test func bothClosureFormsMakeTheirObjects() throws {
        let context = try ApplicationContext(DeclaringClosureFormsFactory())
        #expect(try context.object("singletonPlain", as: DeclaringService.self).name == "singletonPlain")
        #expect(try context.object("singletonResolving", as: DeclaringService.self).name == "got singletonPlain")
        #expect(try context.object("eagerPlain", as: DeclaringService.self).name == "eagerPlain")
        #expect(try context.object("eagerResolving", as: DeclaringService.self).name == "got eagerPlain")
        #expect(try context.object("prototypePlain", as: DeclaringService.self).name == "prototypePlain")
        #expect(try context.object("prototypeResolving", as: DeclaringService.self).name == "got prototypePlain")
    }

    @Test func contextNameDefaultsToTheFactoryTypeName() throws {
        #expect(DeclaringPlainNameFactory().contextName == "DeclaringPlainNameFactory")
        #expect(try ConfiguratorFromFactory(DeclaringPlainNameFactory()).contextName == "DeclaringPlainNameFactory")
        #expect(try ApplicationContext(DeclaringPlainNameFactory()).name == "DeclaringPlainNameFactory")
    }

    @Test func contextNameCanBeOverridden() throws {
        #expect(DeclaringRenamedFactory().contextName == "Renamed")
        #expect(try ConfiguratorFromFactory(DeclaringRenamedFactory()).contextName == "Renamed")
        #expect(try ApplicationContext(DeclaringRenamedFactory()).name == "Renamed")
    }

    @Test func factoryConfigurationAndHelperMethodsAreNotDefinitions() throws {
        let factory = DeclaringConfiguredFactory(baseURL: "https://example.org")
        #expect(factory.definitions.keys == ["endpoint"])
        #expect(try ApplicationContext(factory).object("endpoint", as: String.self) == "https://example.org/users")
    }

    @Test func factorySplitOverFilesListsItsGroupsInOrder() {
        let definitions = SplitFactory().definitions
        #expect(definitions.keys == ["settings", "userService", "userRepository"])
        #expect(definitions.scope(of: "settings") == .eagerSingleton)
        #expect(definitions.scope(of: "userService") == .singleton)
        #expect(definitions.scope(of: "userRepository") == .prototype)
        #expect(definitions.aliases(of: "userService") == ["users"])
    }

    @Test func factorySplitOverFilesWiresAcrossItsGroups() throws {
        let context = try ApplicationContext(SplitFactory())
        let service: SplitUserService = try context.object("users")
        #expect(service.repository.settings.environment == "test")
        #expect(try context.object("userService", as: SplitUserService.self) === service)
        #expect(try context.object("userRepository", as: SplitUserRepository.self) !== service.repository)
    }
}
