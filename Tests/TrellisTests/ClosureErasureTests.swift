import Testing
import Trellis

// A definition keeps its closure with the object type erased and calls it again as the declared
// type. These tests make objects of every kind of representation (a reference, a small and a
// large value, a tuple, a function, an existential, an optional, an empty value) through every
// closure form, so a closure called back with the wrong layout or calling convention would fail
// here.

private final class ErasureObject: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
}

private protocol ErasureShape: Sendable { var sides: Int { get } }
private struct ErasureSquare: ErasureShape { let sides = 4 }

/// Larger than an existential's inline buffer: stored out of line wherever it is boxed.
private struct ErasureLarge: Sendable, Equatable {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6
    var name = "large"
}

private struct ErasureEmpty: Sendable, Equatable {}

private struct ErasureFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("object") { ErasureObject(1) }
        createPrototype("int") { 42 }
        createSingleton("large") { r in _ = try r.object("object", as: ErasureObject.self); return ErasureLarge() }
        createPrototype("tuple") { (7, "seven") }
        createSingleton("function") { { @Sendable (x: Int) in x * 2 } }
        createPrototype("shape") { () -> any ErasureShape in ErasureSquare() }
        createEagerSingleton("optional") { () -> Int? in 5 }
        createPrototype("empty") { ErasureEmpty() }
        createSingleton("string") { r in "made with \(try r.object("int", as: Int.self))" }
    }
}

private struct AsyncErasureFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("object") { () async throws -> ErasureObject in ErasureObject(2) }
        createPrototype("large") { r async throws -> ErasureLarge in
            _ = try await r.object("object", as: ErasureObject.self)
            return ErasureLarge(name: "async")
        }
        createEagerSingleton("tuple") { () async -> (Int, String) in (8, "eight") }
        createPrototype("shape") { () async -> any ErasureShape in ErasureSquare() }
    }
}

@Suite struct ClosureErasureTests {
    @Test func everyRepresentationIsMadeBySynchronousClosures() throws {
        let context = try ApplicationContext(ErasureFactory())
        #expect(try context.object("object", as: ErasureObject.self).id == 1)
        #expect(try context.object("int", as: Int.self) == 42)
        #expect(try context.object("large", as: ErasureLarge.self) == ErasureLarge())
        let tuple = try context.object("tuple", as: (Int, String).self)
        #expect(tuple.0 == 7 && tuple.1 == "seven")
        #expect(try context.object("function", as: (@Sendable (Int) -> Int).self)(21) == 42)
        #expect(try context.object("shape", as: (any ErasureShape).self).sides == 4)
        #expect(try context.object("optional", as: Int?.self) == 5)
        #expect(try context.object("empty", as: ErasureEmpty.self) == ErasureEmpty())
        #expect(try context.object("string", as: String.self) == "made with 42")
    }

    @Test func everyRepresentationIsReturnedAsAnyByLookupsOfAnotherType() throws {
        let context = try ApplicationContext(ErasureFactory())
        #expect(try context.object("large", as: Any.self) as? ErasureLarge == ErasureLarge())
        #expect(try context.object("int", as: Any.self) as? Int == 42)
        #expect((try context.object("shape", as: Any.self) as? any ErasureShape)?.sides == 4)
    }

    @Test func everyRepresentationIsMadeByAsyncClosures() async throws {
        let context = try await ApplicationContext(AsyncErasureFactory())
        #expect(try await context.object("object", as: ErasureObject.self).id == 2)
        #expect(try await context.object("large", as: ErasureLarge.self) == ErasureLarge(name: "async"))
        let tuple = try await context.object("tuple", as: (Int, String).self)
        #expect(tuple.0 == 8 && tuple.1 == "eight")
        #expect(try await context.object("shape", as: (any ErasureShape).self).sides == 4)
    }

    @Test func aDefinitionKeepsItsDeclaredTypeAndScope() {
        let definitions = ErasureFactory().definitions.all
        #expect(definitions.map { ObjectIdentifier($0.objectType) } == [
            ObjectIdentifier(ErasureObject.self), ObjectIdentifier(Int.self), ObjectIdentifier(ErasureLarge.self),
            ObjectIdentifier((Int, String).self), ObjectIdentifier((@Sendable (Int) -> Int).self),
            ObjectIdentifier((any ErasureShape).self), ObjectIdentifier(Int?.self), ObjectIdentifier(ErasureEmpty.self),
            ObjectIdentifier(String.self),
        ])
        #expect(definitions.map(\.scope) == [.singleton, .prototype, .singleton, .prototype, .singleton, .prototype, .eagerSingleton, .prototype, .singleton])
    }

    @Test func aClosureCapturingStateIsReleasedWithItsContext() throws {
        final class Captured: Sendable {}
        weak var captured: Captured?
        do {
            let state = Captured()
            captured = state
            struct Capturing: ObjectFactory {
                let state: Captured
                var definitions: Definitions { createPrototype("state") { [state] in state } }
            }
            let context = try ApplicationContext(Capturing(state: state))
            #expect(try context.object("state", as: Captured.self) === state)
        }
        #expect(captured == nil)
    }
}
