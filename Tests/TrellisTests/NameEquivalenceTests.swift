import Testing
import Trellis

// Issue 10, point 7: names compare as Swift strings. Two spellings Swift considers equal
// (canonically equivalent Unicode: a precomposed letter and its decomposed form, the Kelvin sign
// and "K", combining marks in either order) are one name for keys, explicit aliases and default
// aliases alike; names that are only compatibility-equivalent ("x²" and "x2") stay two names.

// MARK: - Fixtures

/// A factory made of whatever definitions a test hands it.
private struct NameFactory: ObjectFactory {
    var contextName: String { "Names" }
    let make: @Sendable (NameFactory) -> Definitions
    var definitions: Definitions { make(self) }
}

private final class NameObject: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

private func nameFactory(@DefinitionsBuilder _ body: @escaping @Sendable (NameFactory) -> Definitions) -> NameFactory {
    NameFactory(make: body)
}

private func nameContext(@DefinitionsBuilder _ body: @escaping @Sendable (NameFactory) -> Definitions) throws(ContextError) -> ApplicationContext {
    try ApplicationContext(NameFactory(make: body))
}

/// The error configuring `body` throws, or `nil` when it configures.
private func nameError(@DefinitionsBuilder _ body: @escaping @Sendable (NameFactory) -> Definitions) -> ContextError? {
    do {
        _ = try ConfiguratorFromFactory(NameFactory(make: body))
        return nil
    } catch {
        return error
    }
}

/// Two spellings of one name, as Swift sees it, and what they are.
struct EquivalentNames: Sendable, CustomTestStringConvertible {
    let first: String
    let second: String
    let label: String

    var testDescription: String { label }

    static let all: [EquivalentNames] = [
        EquivalentNames(first: "caf\u{E9}", second: "cafe\u{301}", label: "precomposed é, then e + combining acute"),
        EquivalentNames(first: "cafe\u{301}", second: "caf\u{E9}", label: "e + combining acute, then precomposed é"),
        EquivalentNames(first: "\u{212A}", second: "K", label: "Kelvin sign, then K"),
        EquivalentNames(first: "K", second: "\u{212A}", label: "K, then Kelvin sign"),
        EquivalentNames(first: "\u{212A}elvin", second: "Kelvin", label: "Kelvin sign inside a word"),
        EquivalentNames(first: "\u{2126}mega", second: "\u{3A9}mega", label: "Ohm sign, then capital omega"),
        EquivalentNames(first: "a\u{323}\u{302}x", second: "a\u{302}\u{323}x", label: "combining marks in either order"),
        EquivalentNames(first: "\u{AC00}", second: "\u{1100}\u{1161}", label: "Hangul syllable, then its jamo"),
        EquivalentNames(first: "\u{0958}", second: "\u{0915}\u{093C}", label: "Devanagari qa (a composition exclusion), then ka + nukta"),
    ]
}

private enum NameCheck {
    /// Every test first checks that Swift itself considers the pair equal, so a wrong fixture
    /// cannot make a test pass.
    static func swiftConsidersEqual(_ names: EquivalentNames) -> Bool {
        names.first == names.second && names.first.unicodeScalars.elementsEqual(names.second.unicodeScalars) == false
    }
}

private final class NameInjected {
    @Inject("cafe\u{301}") var service: NameObject
}

// MARK: - Tests

@Suite("Names compare as Swift strings")
struct NameEquivalenceTests {
    // MARK: Keys

    @Test(arguments: EquivalentNames.all)
    func twoKeysEqualAsSwiftStringsAreADuplicateKey(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = nameError { f in
            f.createSingleton(names.first) { NameObject("first") }
            f.createSingleton(names.second) { NameObject("second") }
        }
        guard case let .duplicateKey(key, context)? = error else {
            Issue.record("expected duplicateKey, got \(String(describing: error))")
            return
        }
        #expect(key == names.first)
        #expect(context == "Names")
    }

    @Test(arguments: EquivalentNames.all)
    func keyIsFoundByEitherSpelling(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let context = try nameContext { f in f.createSingleton(names.first) { NameObject("made") } }
        let byFirst: NameObject = try context.object(names.first)
        let bySecond: NameObject = try context.object(names.second)
        #expect(byFirst === bySecond)
        #expect(context.contains(names.second))
        #expect(context.keys == [names.first])
    }

    @Test(arguments: EquivalentNames.all)
    func resolverLookupFindsAKeyByEitherSpelling(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let context = try nameContext { f in
            f.createSingleton(names.first) { NameObject("target") }
            f.createPrototype("user") { r in NameObject(try r.object(names.second, as: NameObject.self).tag) }
        }
        #expect(try context.object("user", as: NameObject.self).tag == "target")
    }

    @Test(arguments: EquivalentNames.all)
    func childFindsItsParentsKeyByEitherSpelling(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let parent = try nameContext { f in f.createSingleton(names.first) { NameObject("parent") } }
        let child = try ApplicationContext(nameFactory { f in f.createSingleton("other") { NameObject("other") } }, parent: parent)
        #expect(try child.object(names.second, as: NameObject.self) === (try parent.object(names.first, as: NameObject.self)))
    }

    @Test(arguments: EquivalentNames.all)
    func childKeyInOneSpellingShadowsItsParentsKeyInTheOther(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let parent = try nameContext { f in f.createSingleton(names.first) { NameObject("parent") } }
        let child = try ApplicationContext(nameFactory { f in f.createSingleton(names.second) { NameObject("child") } }, parent: parent)
        #expect(try child.object(names.first, as: NameObject.self).tag == "child")
        #expect(try child.object(names.second, as: NameObject.self).tag == "child")
        #expect(try parent.object(names.second, as: NameObject.self).tag == "parent")
    }

    // MARK: Explicit aliases

    @Test(arguments: EquivalentNames.all)
    func explicitAliasEqualAsASwiftStringToAnotherKeyShadowsIt(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = nameError { f in
            f.createSingleton(names.first) { NameObject("key") }
            f.createSingleton("holder") { NameObject("holder") }.aliases(names.second)
        }
        guard case let .aliasShadowsKey(alias, aliasOf, isGenerated, _)? = error else {
            Issue.record("expected aliasShadowsKey, got \(String(describing: error))")
            return
        }
        #expect(alias == names.second)
        #expect(aliasOf == "holder")
        #expect(!isGenerated)
    }

    @Test(arguments: EquivalentNames.all)
    func aliasesForEqualAsASwiftStringToAnotherKeyShadowsIt(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = nameError { f in
            f.createSingleton("holder") { NameObject("holder") }
            f.createSingleton(names.first) { NameObject("key") }
            f.aliases(for: "holder", names.second)
        }
        guard case let .aliasShadowsKey(alias, aliasOf, _, _)? = error else {
            Issue.record("expected aliasShadowsKey, got \(String(describing: error))")
            return
        }
        #expect(alias == names.first)
        #expect(aliasOf == "holder")
    }

    @Test(arguments: EquivalentNames.all)
    func twoAliasesEqualAsSwiftStringsAreADuplicateAlias(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = nameError { f in
            f.createSingleton("one") { NameObject("one") }.aliases(names.first)
            f.createSingleton("two") { NameObject("two") }.aliases(names.second)
        }
        guard case let .duplicateAlias(alias, uses, _)? = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == names.first)
        #expect(Set(uses) == [.init(key: "one", isGenerated: false), .init(key: "two", isGenerated: false)])
    }

    @Test(arguments: EquivalentNames.all)
    func oneDefinitionGivenAnAliasInBothSpellingsIsADuplicateAlias(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = nameError { f in
            f.createSingleton("one") { NameObject("one") }.aliases(names.first)
            f.aliases(for: "one", names.second)
        }
        guard case let .duplicateAlias(alias, _, _)? = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == names.first)
    }

    @Test(arguments: EquivalentNames.all)
    func aliasIsFoundByEitherSpelling(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let context = try nameContext { f in f.createSingleton("target") { NameObject("target") }.aliases(names.first) }
        let byKey: NameObject = try context.object("target")
        #expect(try context.object(names.first, as: NameObject.self) === byKey)
        #expect(try context.object(names.second, as: NameObject.self) === byKey)
        #expect(context.contains(names.second))
    }

    @Test(arguments: EquivalentNames.all)
    func aliasEqualAsASwiftStringToItsOwnKeySaysItRepeatsItsOwnKey(names: EquivalentNames) throws {
        try #require(NameCheck.swiftConsidersEqual(names))
        let error = try #require(nameError { f in f.createSingleton(names.first) { NameObject("key") }.aliases(names.second) })
        let message = error.description
        #expect(message.contains("own key"), "\(message)")
        #expect(!message.contains("another definition"), "\(message)")
        #expect(!message.contains("two definitions"), "\(message)")
    }

    // MARK: Default aliases

    @Test func defaultAliasOfAPrecomposedKeyShadowsADecomposedKey() throws {
        // "Caf\u{E9}" answers to "caf\u{E9}" (lowercase first), which Swift considers equal to
        // the second key "cafe\u{301}".
        let error = nameError { f in
            f.createSingleton("Caf\u{E9}") { NameObject("upper") }
            f.createSingleton("cafe\u{301}") { NameObject("lower") }
        }
        guard case let .aliasShadowsKey(alias, aliasOf, isGenerated, _)? = error else {
            Issue.record("expected aliasShadowsKey, got \(String(describing: error))")
            return
        }
        #expect(alias == "caf\u{E9}")
        #expect(aliasOf == "Caf\u{E9}")
        #expect(isGenerated)
    }

    @Test func uppercaseDefaultAliasOfADecomposedKeyShadowsAPrecomposedKey() throws {
        let error = nameError { f in
            f.createSingleton("cafe\u{301}") { NameObject("lower") }
            f.createSingleton("CAF\u{C9}") { NameObject("upper") }
        }
        guard case let .aliasShadowsKey(alias, _, isGenerated, _)? = error else {
            Issue.record("expected aliasShadowsKey, got \(String(describing: error))")
            return
        }
        #expect(alias == "CAF\u{C9}")
        #expect(isGenerated)
    }

    @Test func kelvinSignKeyShadowsTheLowercaseKey() throws {
        // "\u{212A}" is "K" to Swift, and "K" answers to "k" by default.
        let error = nameError { f in
            f.createSingleton("\u{212A}") { NameObject("kelvin") }
            f.createSingleton("k") { NameObject("k") }
        }
        guard case let .aliasShadowsKey(alias, _, isGenerated, _)? = error else {
            Issue.record("expected aliasShadowsKey, got \(String(describing: error))")
            return
        }
        #expect(alias == "k")
        #expect(isGenerated)
    }

    @Test func explicitAliasRepeatingItsOwnDefaultAliasInTheOtherSpellingIsADuplicateAlias() throws {
        let error = nameError { f in f.createSingleton("caf\u{E9}") { NameObject("key") }.aliases("CAFE\u{301}") }
        guard case let .duplicateAlias(alias, uses, _)? = error else {
            Issue.record("expected duplicateAlias, got \(String(describing: error))")
            return
        }
        #expect(alias == "CAF\u{C9}")
        #expect(Set(uses) == [.init(key: "caf\u{E9}", isGenerated: true), .init(key: "caf\u{E9}", isGenerated: false)])
    }

    @Test(arguments: [
        ("caf\u{E9}", "CAFE\u{301}"), ("cafe\u{301}", "CAF\u{C9}"), ("Caf\u{E9}", "cafe\u{301}"),
        ("kelvin", "\u{212A}ELVIN"), ("Kelvin", "\u{212A}ELVIN"), ("\u{212A}elvin", "kelvin"), ("\u{212A}elvin", "KELVIN"),
        ("k", "\u{212A}"),
    ])
    func defaultAliasIsFoundByAnySpellingEqualToIt(key: String, lookup: String) throws {
        let context = try nameContext { f in f.createSingleton(key) { NameObject(key) } }
        let byKey: NameObject = try context.object(key)
        #expect(try context.object(lookup, as: NameObject.self) === byKey)
        #expect(context.contains(lookup))
    }

    // MARK: Everything else that names a definition

    @Test func injectKeyInTheOtherSpellingFindsTheDefinition() throws {
        let context = try nameContext { f in
            f.createSingleton("caf\u{E9}") { NameObject("service") }
            f.createPrototype("injected") { NameInjected() }
        }
        let injected: NameInjected = try context.object("injected")
        #expect(injected.service === (try context.object("caf\u{E9}", as: NameObject.self)))
    }

    @Test func overrideNamingTheKeyInTheOtherSpellingReplacesIt() throws {
        let production = nameFactory { f in f.createSingleton("caf\u{E9}") { NameObject("production") } }
        let doubles = nameFactory { f in f.createSingleton("cafe\u{301}") { NameObject("double") } }
        let context = try ApplicationContext(production, overriding: doubles)
        #expect(try context.object("caf\u{E9}", as: NameObject.self).tag == "double")
        #expect(context.keys == ["caf\u{E9}"])
    }

    @Test func configuratorAndDefinitionsAnswerForEitherSpelling() throws {
        let factory = nameFactory { f in
            f.createSingleton("caf\u{E9}") { NameObject("key") }.aliases("cr\u{E8}me")
        }
        let configurator = try ConfiguratorFromFactory(factory)
        #expect(configurator.key(for: "cafe\u{301}") == "caf\u{E9}")
        #expect(configurator.key(for: "cre\u{300}me") == "caf\u{E9}")
        #expect(configurator.key(for: "CAFE\u{301}") == "caf\u{E9}")
        #expect(factory.definitions.scope(of: "cafe\u{301}") == .singleton)
    }

    @Test func namesEqualOnlyUnderCompatibilityMappingStayTwoNames() throws {
        // "x²" and "x2" are different Swift strings (only NFKC folds them): two definitions.
        try #require("x\u{B2}" != "x2")
        try #require("\u{FB01}" != "fi")
        let context = try nameContext { f in
            f.createSingleton("x\u{B2}") { NameObject("squared") }
            f.createSingleton("x2") { NameObject("two") }
            f.createSingleton("pro\u{FB01}t") { NameObject("ligature") }.aliases("a\u{FB01}")
            f.createSingleton("afi") { NameObject("letters") }
        }
        #expect(try context.object("x\u{B2}", as: NameObject.self).tag == "squared")
        #expect(try context.object("x2", as: NameObject.self).tag == "two")
        #expect(try context.object("a\u{FB01}", as: NameObject.self).tag == "ligature")
        #expect(try context.object("afi", as: NameObject.self).tag == "letters")
        #expect(!context.contains("profit"))
    }

    @Test func nonASCIILookupOfAnASCIIKeyStillFailsForADifferentName() throws {
        let context = try nameContext { f in f.createSingleton("cafe") { NameObject("plain") } }
        #expect(!context.contains("caf\u{E9}"))
        #expect(throws: ContextError.self) { try context.object("caf\u{E9}", as: NameObject.self) }
    }
}
