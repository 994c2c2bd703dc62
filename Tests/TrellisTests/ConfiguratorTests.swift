import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

/// A factory made of whatever definitions a test hands it, named `contextName`.
private struct ConfigFactory: ObjectFactory {
    var contextName: String { "ConfigContext" }
    let make: @Sendable (ConfigFactory) -> Definitions
    var definitions: Definitions { make(self) }

    /// A nested group.
    func group(@DefinitionsBuilder _ body: () -> Definitions) -> Definitions { body() }
}

private func configure(@DefinitionsBuilder _ body: @escaping @Sendable (ConfigFactory) -> Definitions) throws(ContextError) -> ConfiguratorFromFactory {
    try ConfiguratorFromFactory(ConfigFactory(make: body))
}

/// A factory of `body`'s definitions.
private func configFactory(@DefinitionsBuilder _ body: @escaping @Sendable (ConfigFactory) -> Definitions) -> ConfigFactory {
    ConfigFactory(make: body)
}

/// The error configuring `body` throws, or `nil` when it configures.
private func configurationError(@DefinitionsBuilder _ body: @escaping @Sendable (ConfigFactory) -> Definitions) -> ContextError? {
    do {
        _ = try configure(body)
        return nil
    } catch {
        return error
    }
}

private final class ConfigObject: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

private struct ConfigShapeFactory: ObjectFactory {
    var contextName: String { "Shape" }
    var definitions: Definitions {
        createEagerSingleton("clock") { ConfigObject("clock") }
        createSingleton("mailService") { ConfigObject("mailer") }.aliases("postman")
        createPrototype("Request") { ConfigObject("request") }
        aliases(for: "mailService", "_mailer")
    }
}

/// Counts how often its `definitions` are evaluated and records what its closures make.
private final class ConfigCounter: Sendable {
    private let evaluations = Guarded(0)
    private let made = Guarded(0)
    var evaluationCount: Int { evaluations.withLock { $0 } }
    var madeCount: Int { made.withLock { $0 } }
    func evaluated() { evaluations.withLock { $0 += 1 } }
    func make() -> ConfigObject {
        made.withLock { $0 += 1 }
        return ConfigObject("made")
    }
}

private struct ConfigCountingFactory: ObjectFactory {
    let counter: ConfigCounter
    let broken: Bool
    var definitions: Definitions {
        counter.evaluated()
        return group
    }

    @DefinitionsBuilder var group: Definitions {
        createEagerSingleton("first") { counter.make() }
        createSingleton("second") { counter.make() }
        if broken {
            createPrototype("first") { counter.make() }
        }
    }
}

private struct ConfigParentFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("shared") { ConfigObject("parent shared") }.aliases("common")
    }
}

private struct ConfigChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("shared") { ConfigObject("child shared") }
        createSingleton("other") { ConfigObject("child other") }.aliases("common")
    }
}

// MARK: - Tests

@Suite struct ConfiguratorTests {
    // MARK: Keys

    @Test(arguments: ["", " ", " leading", "trailing ", "\nnewline", "newline\n", "\ttab", "tab\t", " both ", "\u{00A0}nbsp"])
    func keyEmptyOrWithOuterWhitespaceIsInvalid(key: String) {
        let error = configurationError { f in f.createSingleton(key) { 1 } }
        #expect(error == .invalidKey(key: key, context: "ConfigContext"))
    }

    @Test func keyWithInnerWhitespaceIsValid() throws {
        let configurator = try configure { f in f.createSingleton("two words") { 1 } }
        #expect(configurator.keys == ["two words"])
    }

    @Test func invalidKeyAmongValidOnesIsReported() {
        let error = configurationError { f in
            f.createSingleton("fine") { 1 }
            f.createSingleton(" bad") { 2 }
        }
        #expect(error == .invalidKey(key: " bad", context: "ConfigContext"))
    }

    @Test func keysAreCaseSensitive() throws {
        // Only the key itself and its default aliases answer; other spellings do not.
        let configurator = try configure { f in f.createSingleton("mailer") { 1 } }
        #expect(configurator.key(for: "mailer") == "mailer")
        #expect(configurator.key(for: "MAILER") == "mailer")
        #expect(configurator.key(for: "Mailer") == nil)
        #expect(configurator.key(for: "mAILER") == nil)
        #expect(configurator.key(for: "mailER") == nil)
    }

    @Test func duplicateKeyIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }
            f.createPrototype("clock") { 2 }
            f.createPrototype("mailer") { 3 }
        }
        #expect(error == .duplicateKey(key: "mailer", context: "ConfigContext"))
    }

    @Test func duplicateKeyAcrossGroupsIsRejected() {
        let error = configurationError { f in
            f.group { f.createSingleton("mailer") { 1 } }
            f.group { f.createEagerSingleton("mailer") { 2 } }
        }
        #expect(error == .duplicateKey(key: "mailer", context: "ConfigContext"))
    }

    // MARK: Default aliases

    @Test func uppercaseDefaultAliasNamesTheKey() throws {
        let configurator = try configure { f in f.createSingleton("fooBar") { 1 } }
        #expect(configurator.key(for: "FOOBAR") == "fooBar")
        #expect(configurator.aliasTable["FOOBAR"] == "fooBar")
    }

    @Test func lowercaseFirstDefaultAliasNamesTheKey() throws {
        let configurator = try configure { f in f.createSingleton("FooBar") { 1 } }
        #expect(configurator.key(for: "fooBar") == "FooBar")
        #expect(configurator.key(for: "FOOBAR") == "FooBar")
        #expect(configurator.aliasTable == ["fooBar": "FooBar", "FOOBAR": "FooBar"])
    }

    @Test func defaultAliasEqualToItsKeyIsNotAdded() throws {
        let configurator = try configure { f in
            f.createSingleton("foo") { 1 }    // lowercase-first "foo" is the key itself
            f.createSingleton("BAR") { 2 }    // uppercase "BAR" is the key itself
            f.createSingleton("42") { 3 }     // neither form differs
        }
        #expect(configurator.aliases(of: "foo") == ["FOO"])
        #expect(configurator.aliases(of: "BAR") == ["bAR"])
        #expect(configurator.aliases(of: "42").isEmpty)
        #expect(configurator.aliasTable == ["FOO": "foo", "bAR": "BAR"])
    }

    @Test func defaultAliasesOfNonASCIIKeysAreGeneratedToo() throws {
        let configurator = try configure { f in
            f.createSingleton("élan") { 1 }
            f.createSingleton("Über") { 2 }
        }
        #expect(configurator.key(for: "ÉLAN") == "élan")
        #expect(configurator.key(for: "über") == "Über")
        #expect(configurator.key(for: "ÜBER") == "Über")
        #expect(configurator.key(for: "Élan") == nil)
    }

    @Test func defaultAliasesResolveInAContext() throws {
        let context = try ApplicationContext(ConfigShapeFactory())
        let mailer: ConfigObject = try context.object("mailService")
        #expect(try context.object("MAILSERVICE", as: ConfigObject.self) === mailer)
        #expect(try context.object("request", as: ConfigObject.self).tag == "request")
        #expect(try context.object("REQUEST", as: ConfigObject.self).tag == "request")
    }

    // MARK: Unique names

    @Test func explicitAliasEqualToAnotherKeyIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }
            f.createSingleton("clock") { 2 }.aliases("mailer")
        }
        #expect(error == .aliasShadowsKey(alias: "mailer", aliasOf: "clock", isGenerated: false, context: "ConfigContext"))
    }

    @Test func explicitAliasForEqualToAnotherKeyIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }
            f.createSingleton("clock") { 2 }
            f.aliases(for: "clock", "mailer")
        }
        #expect(error == .aliasShadowsKey(alias: "mailer", aliasOf: "clock", isGenerated: false, context: "ConfigContext"))
    }

    @Test func explicitAliasEqualToItsOwnKeyIsRejected() {
        let error = configurationError { f in f.createSingleton("mailer") { 1 }.aliases("mailer") }
        #expect(error != nil)
    }

    // Issue 10, point 11: only one definition is involved, so the message must not send the
    // reader looking for "another definition".
    @Test(arguments: ["modifier", "aliasesFor"])
    func aliasEqualToItsOwnKeySaysAnAliasCannotRepeatItsOwnKey(form: String) throws {
        let error = try #require(configurationError { f in
            f.createSingleton("clock") { 0 }
            if form == "modifier" {
                f.createSingleton("mailer") { 1 }.aliases("postman", "mailer")
            } else {
                f.createSingleton("mailer") { 1 }
                f.aliases(for: "mailer", "postman", "mailer")
            }
        })
        let message = error.description
        #expect(message.contains("'mailer'"), "\(message)")
        #expect(message.contains("ConfigContext"), "\(message)")
        #expect(message.contains("cannot repeat") && message.contains("own key"), "\(message)")
        #expect(!message.contains("another definition"), "\(message)")
        #expect(!message.contains("two definitions"), "\(message)")
        #expect(!message.contains("'clock'"), "\(message)")
        #expect(!message.contains("'postman'"), "\(message)")
    }

    @Test(arguments: [Scope.singleton, .eagerSingleton, .prototype, .weak])
    func aliasEqualToItsOwnKeyIsRejectedWithTheSameMessageForEveryScope(scope: Scope) throws {
        let error = try #require(configurationError { f in
            switch scope {
            case .singleton: f.createSingleton("mailer") { 1 }.aliases("mailer")
            case .eagerSingleton: f.createEagerSingleton("mailer") { 1 }.aliases("mailer")
            case .prototype: f.createPrototype("mailer") { 1 }.aliases("mailer")
            case .weak: f.createWeakSingleton("mailer") { WeakMailer() }.aliases("mailer")
            }
        })
        #expect(error.description.contains("own key"), "\(error)")
        #expect(!error.description.contains("another definition"), "\(error)")
    }

    @Test func aliasEqualToItsOwnKeyIsReportedByValidateWithTheSameMessage() throws {
        let direct = try #require(configurationError { f in f.createSingleton("mailer") { 1 }.aliases("mailer") })
        let report = ApplicationContext.validate(configFactory { f in f.createSingleton("mailer") { 1 }.aliases("mailer") })
        #expect(report.problems == [direct])
        #expect(report.problems.first?.description.contains("another definition") == false)
    }

    @Test func generatedAliasEqualToAnotherKeyIsRejected() {
        let error = configurationError { f in
            f.createSingleton("Foo") { 1 }
            f.createSingleton("foo") { 2 }
        }
        #expect(error == .aliasShadowsKey(alias: "foo", aliasOf: "Foo", isGenerated: true, context: "ConfigContext"))
        let message = error?.description ?? ""
        #expect(message.contains("'Foo'"))
        #expect(message.contains("'foo'"))
        #expect(message.contains("generated"))
    }

    /// Docs/Concepts.md "Every name is unique": in either order, the error is the one that says
    /// why (`Foo`'s default alias `foo` is the other key), not the two keys' shared `FOO`.
    @Test func keysDifferingOnlyInCaseAreRejectedInEitherOrder() {
        let error = configurationError { f in
            f.createSingleton("foo") { 1 }
            f.createSingleton("Foo") { 2 }
        }
        let message = error?.description ?? ""
        #expect(error == .aliasShadowsKey(alias: "foo", aliasOf: "Foo", isGenerated: true, context: "ConfigContext"))
        #expect(message.contains("'foo'"))
        #expect(message.contains("'Foo'"))
        #expect(message.contains("generated"))
    }

    /// Docs/Concepts.md "Every name is unique": two keys that differ in the case of their
    /// first letter clash twice (the one's lowercase-first default alias is the other's key,
    /// and they share the uppercase one); validate reports the clash once, in either order,
    /// for ASCII keys and others.
    @Test(arguments: [["foo", "Foo"], ["Foo", "foo"], ["fooBar", "FooBar"], ["éclair", "Éclair"], ["Éclair", "éclair"]])
    func keysDifferingInTheCaseOfTheirFirstLetterAreOneProblemForValidate(_ keys: [String]) {
        let report = ApplicationContext.validate(configFactory { f in
            for key in keys { f.createSingleton(key) { 1 } }
        })
        #expect(report.problems.count == 1, "\(report)")
        #expect(report.problems.first.map { if case .aliasShadowsKey = $0 { true } else { false } } == true, "\(report)")
    }

    @Test func oneAliasOnTwoDefinitionsIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }.aliases("service")
            f.createSingleton("clock") { 2 }
            f.aliases(for: "clock", "service")
        }
        #expect(error == .duplicateAlias(alias: "service", uses: [
            .init(key: "mailer", isGenerated: false), .init(key: "clock", isGenerated: false),
        ], context: "ConfigContext"))
    }

    @Test func twoKeysGeneratingOneDefaultAliasAreRejected() {
        let error = configurationError { f in
            f.createSingleton("ab") { 1 }
            f.createSingleton("aB") { 2 }
        }
        #expect(error == .duplicateAlias(alias: "AB", uses: [
            .init(key: "ab", isGenerated: true), .init(key: "aB", isGenerated: true),
        ], context: "ConfigContext"))
        let message = error?.description ?? ""
        #expect(message.contains("'AB'"))
        #expect(message.contains("'ab'"))
        #expect(message.contains("'aB'"))
        #expect(message.contains("generated"))
    }

    @Test func explicitAliasRepeatingItsOwnDefaultAliasIsRejected() {
        let error = configurationError { f in f.createSingleton("fooBar") { 1 }.aliases("FOOBAR") }
        guard case let .duplicateAlias(alias, uses, _) = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == "FOOBAR")
        #expect(Set(uses) == [.init(key: "fooBar", isGenerated: true), .init(key: "fooBar", isGenerated: false)])
    }

    @Test func explicitAliasRepeatingItsOwnLowercaseFirstDefaultIsRejected() {
        let error = configurationError { f in
            f.createSingleton("FooBar") { 1 }
            f.aliases(for: "FooBar", "fooBar")
        }
        guard case let .duplicateAlias(alias, _, _) = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == "fooBar")
    }

    @Test func aliasRepeatedForOneDefinitionIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }.aliases("postman")
            f.aliases(for: "mailer", "postman")
        }
        guard case let .duplicateAlias(alias, _, _) = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == "postman")
    }

    @Test func aliasesForAnUnknownKeyIsRejected() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }
            f.aliases(for: "mailr", "postman")
        }
        #expect(error == .aliasOfUnknownKey(alias: "postman", key: "mailr", context: "ConfigContext"))
    }

    @Test func aliasesForWithNoAliasForAnUnknownKeyNamesNoEmptyAlias() {
        let error = configurationError { f in
            f.createSingleton("mailer") { 1 }
            f.aliases(for: "mailr")
        }
        #expect(error == .aliasOfUnknownKey(alias: "", key: "mailr", context: "ConfigContext"))
        #expect(error?.description.contains("Alias ''") == false, "\(String(describing: error))")
        #expect(error?.description.contains("aliases(for: 'mailr')") == true)
    }

    /// The doc comment of `ConfiguratorFromFactory.init`: the first naming rule broken, in
    /// declaration order, whether the names are ASCII or not, keys or aliases.
    @Test(arguments: [("b", "z"), ("b", "\u{E9}"), ("\u{E9}", "z")])
    func theFirstNamingProblemInDeclarationOrderIsTheOneThrown(names: (alias: String, duplicated: String)) {
        let error = configurationError { f in
            f.createSingleton("a") { 1 }.aliases(names.alias)
            f.createSingleton(names.alias) { 2 }
            f.createSingleton(names.duplicated) { 3 }
            f.createSingleton(names.duplicated) { 4 }
        }
        #expect(error == .aliasShadowsKey(alias: names.alias, aliasOf: "a", isGenerated: false, context: "ConfigContext"))
    }

    /// A duplicated alias of earlier definitions comes before the later key that takes its name.
    @Test func aDuplicatedAliasIsThrownBeforeALaterKeyOfTheSameName() {
        let twice = configurationError { f in
            f.createSingleton("a") { 1 }.aliases("x", "x")
            f.createSingleton("x") { 2 }
        }
        guard case let .duplicateAlias(alias, uses, _)? = twice else {
            Issue.record("expected duplicateAlias, got \(String(describing: twice))")
            return
        }
        #expect(alias == "x" && uses.map(\.key) == ["a", "a"])
        let shared = configurationError { f in
            f.createSingleton("a") { 1 }.aliases("x")
            f.createSingleton("b") { 2 }.aliases("x")
            f.createSingleton("x") { 3 }
        }
        guard case let .duplicateAlias(_, sharedUses, _)? = shared else {
            Issue.record("expected duplicateAlias, got \(String(describing: shared))")
            return
        }
        #expect(sharedUses.map(\.key) == ["a", "b"])
    }

    /// `aliases(for:)` naming a key the factory declares, left out for a problem of its own, is
    /// not also "not a key of the factory".
    @Test func aliasesForARejectedKeyAddsNoProblem() {
        let report = ApplicationContext.validate(configFactory { f in
            f.createSingleton(" bad") { 1 }
            f.aliases(for: " bad", "good")
        })
        #expect(report.problems == [.invalidKey(key: " bad", context: "ConfigContext")])
    }

    /// The error a context's configuration throws is one of the problems a validation reports,
    /// in the same words (its uses in declaration order), and a key left out of a validation's
    /// table for a default alias of its own hides no later clash with the key.
    @Test func theErrorThrownIsAmongTheProblemsAValidationReports() {
        let factories = [
            configFactory { f in
                f.createSingleton("a") { 0 }.aliases("FOO")
                f.createSingleton("foo") { 1 }
            },
            configFactory { f in
                f.createSingleton("foo") { 0 }.aliases("Foo")
                f.createSingleton("Foo") { 1 }
            },
        ]
        for factory in factories {
            var thrown: ContextError?
            do { _ = try ConfiguratorFromFactory(factory) } catch { thrown = error }
            let problems = ApplicationContext.validate(factory).problems
            #expect(thrown.map { problems.contains($0) } == true, "\(String(describing: thrown)) not in \(problems)")
        }
    }

    @Test func aNameDeclaredTwiceIsOneProblem() {
        let report = ApplicationContext.validate(configFactory { f in f.createSingleton("a") { 0 }.aliases(" x", " x") })
        #expect(report.problems == [.invalidKey(key: " x", context: "ConfigContext")])
    }

    @Test func aDuplicatedNonASCIIKeyIsOneProblemNotOnePerDefaultAlias() {
        // Docs/Testing.md: `problems` lists every distinct problem; a default alias of a key that
        // was rejected repeats the key's problem.
        let report = ApplicationContext.validate(configFactory { f in
            f.createSingleton("\u{E9}lan") { 1 }
            f.createSingleton("e\u{301}lan") { 2 }
        })
        #expect(report.problems == [.duplicateKey(key: "\u{E9}lan", context: "ConfigContext")])
    }

    /// Docs/Testing.md: a validation reports every distinct problem once; where a key and an
    /// earlier alias clash, the key keeps its definition (the alias is the problem), so nothing
    /// that follows from the clash is reported as a problem of its own.
    @Test func aKeyEqualToAnEarlierAliasKeepsItsDefinitionInAValidation() {
        let duplicated = ApplicationContext.validate(configFactory { f in
            f.createSingleton("a") { 1 }.aliases("b")
            f.createSingleton("b") { 2 }
            f.createSingleton("b") { 3 }
        })
        #expect(Set(duplicated.problems.map(\.description)) == Set([
            ContextError.aliasShadowsKey(alias: "b", aliasOf: "a", isGenerated: false, context: "ConfigContext"),
            .duplicateKey(key: "b", context: "ConfigContext"),
        ].map(\.description)))
        #expect(duplicated.problems.count == 2)
        for alias in ["b", "B"] {
            let report = ApplicationContext.validate(configFactory { f in
                f.createSingleton("a") { "text" }.aliases(alias)
                f.createSingleton("b") { 2 }
                f.createSingleton("c") { r in try r.object("b", as: Int.self) + 1 }
                f.aliases(for: "b", "d")
            })
            #expect(report.problems.count == 1, "\(alias): \(report.problems)")
        }
        let twoClashes = ApplicationContext.validate(configFactory { f in
            f.createSingleton("x") { 1 }.aliases("AB")
            f.createSingleton("y") { 2 }.aliases("ab")
            f.createSingleton("Ab") { 3 }
        })
        #expect(twoClashes.problems.count == 2, "\(twoClashes.problems)")
    }

    @Test func aliasesForMayPrecedeTheDefinitionItNames() throws {
        let configurator = try configure { f in
            f.aliases(for: "mailer", "postman")
            f.createSingleton("mailer") { 1 }
        }
        #expect(configurator.key(for: "postman") == "mailer")
    }

    @Test func invalidExplicitAliasIsRejected() {
        let error = configurationError { f in f.createSingleton("mailer") { 1 }.aliases(" postman") }
        #expect(error == .invalidKey(key: " postman", context: "ConfigContext"))
    }

    @Test func childMayReuseItsParentsKeysAndAliases() throws {
        let parent = try ApplicationContext(ConfigParentFactory())
        let child = try ApplicationContext(ConfigChildFactory(), parent: parent)
        #expect(try child.object("shared", as: ConfigObject.self).tag == "child shared")
        #expect(try child.object("common", as: ConfigObject.self).tag == "child other")
        #expect(try parent.object("common", as: ConfigObject.self).tag == "parent shared")
    }

    // MARK: When

    @Test func definitionsAreEvaluatedOnce() throws {
        let counter = ConfigCounter()
        _ = try ApplicationContext(ConfigCountingFactory(counter: counter, broken: false))
        #expect(counter.evaluationCount == 1)
    }

    @Test func namingErrorIsThrownBeforeAnyObjectIsMade() {
        let counter = ConfigCounter()
        #expect(throws: ContextError.duplicateKey(key: "first", context: "ConfigCountingFactory")) {
            _ = try ApplicationContext(ConfigCountingFactory(counter: counter, broken: true))
        }
        #expect(counter.madeCount == 0)
    }

    // MARK: What the configurator exposes

    @Test func configuratorExposesDefinitionsInDeclarationOrder() throws {
        let configurator = try ConfiguratorFromFactory(ConfigShapeFactory())
        #expect(configurator.definitions.map(\.key) == ["clock", "mailService", "Request"])
        #expect(configurator.definitions.map(\.scope) == [.eagerSingleton, .singleton, .prototype])
        #expect(configurator.keys == ["clock", "mailService", "Request"])
        #expect(configurator.contextName == "Shape")
    }

    @Test func configuratorAliasTableHoldsExplicitAndDefaultAliases() throws {
        let configurator = try ConfiguratorFromFactory(ConfigShapeFactory())
        #expect(configurator.aliasTable == [
            "CLOCK": "clock",
            "MAILSERVICE": "mailService", "postman": "mailService", "_mailer": "mailService",
            "REQUEST": "Request", "request": "Request",
        ])
    }

    @Test func configuratorListsAliasesOfAKeyExplicitFirst() throws {
        let configurator = try ConfiguratorFromFactory(ConfigShapeFactory())
        #expect(configurator.aliases(of: "mailService") == ["postman", "_mailer", "MAILSERVICE"])
        #expect(Set(configurator.aliases(of: "Request")) == ["REQUEST", "request"])
        #expect(configurator.aliases(of: "missing").isEmpty)
    }

    @Test func configuratorFindsTheKeyForAnyName() throws {
        let configurator = try ConfiguratorFromFactory(ConfigShapeFactory())
        #expect(configurator.key(for: "mailService") == "mailService")
        #expect(configurator.key(for: "postman") == "mailService")
        #expect(configurator.key(for: "_mailer") == "mailService")
        #expect(configurator.key(for: "MAILSERVICE") == "mailService")
        #expect(configurator.key(for: "request") == "Request")
        #expect(configurator.key(for: "mailservice") == nil)
        #expect(configurator.key(for: "missing") == nil)
    }

    @Test func oneConfiguratorStartsIndependentContexts() throws {
        let configurator = try ConfiguratorFromFactory(ConfigShapeFactory())
        let first = try ApplicationContext(configurator: configurator)
        let second = try ApplicationContext(configurator: configurator)
        #expect(first.name == "Shape")
        #expect(try first.object("clock", as: ConfigObject.self) !== second.object("clock", as: ConfigObject.self))
    }

    /// The name table of a factory type is cached, and the first one reused is kept where it is
    /// read without a lock (Docs/Performance.md, "Building a context per request, round five"):
    /// a factory of the same type with other names must still get a table of its own names,
    /// before and after, and the kept table must still serve the names it was built from.
    @Test func factoryOfOneTypeWithOtherNamesGetsATableOfItsOwnNames() throws {
        func names(_ keys: [String], alias: String?) -> ConfigFactory {
            configFactory { factory in
                for key in keys { factory.createSingleton(key) { ConfigObject(key) } }
                if let alias { factory.aliases(for: keys[0], alias) }
            }
        }
        for _ in 0..<3 {
            let kept = try ConfiguratorFromFactory(names(["kept0", "kept1"], alias: nil))
            #expect(kept.keys == ["kept0", "kept1"] && kept.key(for: "other") == nil)
        }
        let other = try ConfiguratorFromFactory(names(["kept0", "other"], alias: nil))
        #expect(other.keys == ["kept0", "other"] && other.key(for: "kept1") == nil)
        let aliased = try ConfiguratorFromFactory(names(["kept0", "kept1"], alias: "first"))
        #expect(aliased.key(for: "first") == "kept0")
        let keptAgain = try ConfiguratorFromFactory(names(["kept0", "kept1"], alias: nil))
        #expect(keptAgain.keys == ["kept0", "kept1"] && keptAgain.key(for: "first") == nil && keptAgain.key(for: "other") == nil)
    }
}

/// A class for the weak scope, which takes classes only.
private final class WeakMailer: Sendable {}
