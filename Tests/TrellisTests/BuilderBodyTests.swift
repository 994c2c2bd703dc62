import Testing
import Trellis

/// A builder body of single definitions (the usual factory) is joined as one array literal, a
/// body with a group or an alias declaration in it as before; both keep declaration order, and
/// each definition its scope and closure (Docs/Performance.md, "What every context pays for
/// itself").
@Suite("Declaring: bodies of single definitions")
struct BuilderBodyTests {
    @Test(arguments: bodiesOfEveryLength.map(\.count))
    func aBodyOfSingleDefinitionsKeepsEachDefinitionInItsPlace(count: Int) throws {
        let factory = try #require(bodiesOfEveryLength.first { $0.count == count }).factory
        let expectedKeys = (0..<count).map { "k\($0)" }
        #expect(factory.definitions.keys == expectedKeys)
        let scopes: [Scope] = [.singleton, .prototype, .eagerSingleton]
        for (position, key) in expectedKeys.enumerated() {
            #expect(factory.definitions.scope(of: key) == scopes[position % 3])
        }
        let context = try ApplicationContext(factory)
        for (position, key) in expectedKeys.enumerated() {
            #expect(try context.object(key, as: Int.self) == position)
        }
    }

    private struct SinglesAroundAGroup: ObjectFactory {
        var definitions: Definitions {
            createSingleton("first") { 1 }
            group
            createSingleton("last") { 3 }
            aliases(for: "last", "final")
        }

        @DefinitionsBuilder var group: Definitions {
            createSingleton("middle") { 2 }
            createPrototype("alsoMiddle") { 22 }
        }
    }

    @Test func aBodyWithAGroupAndAnAliasDeclarationKeepsDeclarationOrder() throws {
        let definitions = SinglesAroundAGroup().definitions
        #expect(definitions.keys == ["first", "middle", "alsoMiddle", "last"])
        #expect(definitions.aliases(of: "last") == ["final"])
        let context = try ApplicationContext(SinglesAroundAGroup())
        #expect(try context.object("final", as: Int.self) == 3)
        #expect(try context.object("alsoMiddle", as: Int.self) == 22)
    }
}
