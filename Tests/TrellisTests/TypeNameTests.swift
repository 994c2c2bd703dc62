import Testing
@testable import Trellis

private struct PrivateNamedFactory: ObjectFactory {
    var definitions: Definitions { createSingleton("one") { 1 } }
}

private struct GenericNamedFactory<Tag>: ObjectFactory {
    var definitions: Definitions { createSingleton("one") { 1 } }
}

@Suite struct TypeNameTests {
    @Test func theDefaultContextNameIsTheFactorysTypeNameAsStringDescribingWritesIt() throws {
        #expect(PrivateNamedFactory().contextName == String(describing: PrivateNamedFactory.self))
        #expect(PrivateNamedFactory().contextName == "PrivateNamedFactory")
        #expect(GenericNamedFactory<PrivateNamedFactory>().contextName == "GenericNamedFactory<PrivateNamedFactory>")
        #expect(try ApplicationContext(PrivateNamedFactory()).name == "PrivateNamedFactory")
    }

    // Optimised builds spell a private type with its discriminator; the default name drops it.
    @Test func privateDiscriminatorsAreRemovedFromTypeNames() {
        #expect(TypeName.removingDiscriminators(from: "(RequestFactory in _3259BD65DE6C89FCCDB8DB68D1783721)") == "RequestFactory")
        #expect(TypeName.removingDiscriminators(from: "(Q in _D3B16D03)<(P in _D3B16D03)>") == "Q<P>")
        #expect(TypeName.removingDiscriminators(from: "Outer<(P in _AB12), Int>") == "Outer<P, Int>")
    }

    @Test func tuplesAndFunctionTypesKeepTheirParentheses() {
        #expect(TypeName.removingDiscriminators(from: "Factory<(Int, String)>") == "Factory<(Int, String)>")
        #expect(TypeName.removingDiscriminators(from: "Factory<(Int) -> ()>") == "Factory<(Int) -> ()>")
        #expect(TypeName.removingDiscriminators(from: "Factory<(a in b)>") == "Factory<(a in b)>")
        #expect(TypeName.removingDiscriminators(from: "(") == "(")
    }
}
