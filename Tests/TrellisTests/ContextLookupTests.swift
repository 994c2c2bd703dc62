import Testing
import Trellis

// MARK: - Fixtures

private final class LookupObject: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// An object that depends on whatever `x` its owning context resolves.
private final class LookupDependent: Sendable {
    let x: LookupObject
    init(x: LookupObject) { self.x = x }
}

private protocol LookupClock: Sendable {
    var now: Int { get }
}

private struct LookupFixedClock: LookupClock {
    let now: Int
}

private class LookupAnimal: @unchecked Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private final class LookupDog: LookupAnimal, @unchecked Sendable {}

private struct LookupPoint: Equatable, Sendable {
    var x: Int
    var y: Int
}

private struct LookupParentFactory: ObjectFactory {
    var contextName: String { "Parent" }
    var definitions: Definitions {
        createSingleton("x") { LookupObject("parent x") }
        createSingleton("parentService") { r in LookupDependent(x: try r.object("x")) }
        createSingleton("onlyInParent") { LookupObject("only in parent") }.aliases("parentAlias")
        createSingleton("shadowed") { LookupObject("parent shadowed") }
        createSingleton("needsChildOnly") { r in LookupDependent(x: try r.object("onlyInChild")) }
        createSingleton("replaced") { LookupObject("parent replaced") }
    }
}

private struct LookupChildFactory: ObjectFactory {
    var contextName: String { "Child" }
    var definitions: Definitions {
        createSingleton("x") { LookupObject("child x") }
        createSingleton("childService") { r in LookupDependent(x: try r.object("x")) }
        createSingleton("shadowed") { LookupObject("child shadowed") }
        createSingleton("onlyInChild") { LookupObject("only in child") }
        createSingleton("replacement") { LookupObject("child replacement") }.aliases("replaced")
    }
}

private struct LookupGrandchildFactory: ObjectFactory {
    var contextName: String { "Grandchild" }
    var definitions: Definitions {
        createPrototype("grandchildOnly") { LookupObject("grandchild") }
    }
}

private struct LookupNamesFactory: ObjectFactory {
    var contextName: String { "Names" }
    var definitions: Definitions {
        createSingleton("mailService") { LookupObject("mailer") }.aliases("postman")
        createSingleton("HttpClient") { LookupObject("http") }
        createPrototype("number") { 42 }
        aliases(for: "mailService", "_mailer")
    }
}

private struct LookupSameKeyParentFactory: ObjectFactory {
    var contextName: String { "SameKeyParent" }
    var definitions: Definitions {
        createSingleton("k") { 42 }.aliases("parentK")
    }
}

private struct LookupSameKeyChildFactory: ObjectFactory {
    var contextName: String { "SameKeyChild" }
    var definitions: Definitions {
        createPrototype("k") { r in try r.object("parentK", as: String.self) }
    }
}

private struct LookupValuesFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("point") { LookupPoint(x: 1, y: 2) }
        createPrototype("greeter") { { (name: String) -> String in "Hello, \(name)" } }
        createSingleton("clock") { () -> any LookupClock in LookupFixedClock(now: 7) }
        createSingleton("dog") { LookupDog(name: "Rex") }
        createSingleton("name") { "Trellis" }
        createSingleton("number") { 42 }
    }
}

// MARK: - Tests

@Suite struct ContextLookupTests {
    // MARK: Names

    @Test func objectIsFoundByKeyExplicitAliasAndDefaultAlias() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        let mailer: LookupObject = try context.object("mailService")
        #expect(try context.object("postman", as: LookupObject.self) === mailer)
        #expect(try context.object("_mailer", as: LookupObject.self) === mailer)
        #expect(try context.object("MAILSERVICE", as: LookupObject.self) === mailer)
    }

    @Test func lowercaseFirstDefaultAliasFindsTheObject() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        let client: LookupObject = try context.object("HttpClient")
        #expect(try context.object("httpClient", as: LookupObject.self) === client)
        #expect(try context.object("HTTPCLIENT", as: LookupObject.self) === client)
    }

    @Test func unknownNameIsNoSuchObject() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        #expect(throws: ContextError.noSuchObject(key: "mailservice", searched: ["Names"], path: ["mailservice"])) {
            try context.object("mailservice", as: LookupObject.self)
        }
    }

    // MARK: Parent chain

    @Test func childFallsBackToItsParent() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        let fromChild: LookupObject = try child.object("onlyInParent")
        #expect(fromChild === (try parent.object("onlyInParent", as: LookupObject.self)))
        #expect(try child.object("parentAlias", as: LookupObject.self) === fromChild)
        #expect(try child.object("ONLYINPARENT", as: LookupObject.self) === fromChild)
    }

    @Test func fallbackWalksTheWholeChain() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        let grandchild = try ApplicationContext(LookupGrandchildFactory(), parent: child)
        #expect(try grandchild.object("onlyInParent", as: LookupObject.self).tag == "only in parent")
        #expect(try grandchild.object("onlyInChild", as: LookupObject.self).tag == "only in child")
    }

    @Test func childShadowsItsParent() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(try child.object("shadowed", as: LookupObject.self).tag == "child shadowed")
        #expect(try child.object("SHADOWED", as: LookupObject.self).tag == "child shadowed")
        #expect(try parent.object("shadowed", as: LookupObject.self).tag == "parent shadowed")
    }

    @Test func childAliasShadowsAParentKey() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(try child.object("replaced", as: LookupObject.self).tag == "child replacement")
        #expect(try parent.object("replaced", as: LookupObject.self).tag == "parent replaced")
    }

    @Test func parentNeverSeesItsChildsKeys() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        _ = try child.object("onlyInChild", as: LookupObject.self)
        #expect(!parent.contains("onlyInChild"))
        #expect(throws: ContextError.noSuchObject(key: "onlyInChild", searched: ["Parent"], path: ["onlyInChild"])) {
            try parent.object("onlyInChild", as: LookupObject.self)
        }
    }

    @Test func noSuchObjectNamesEveryContextSearched() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        let grandchild = try ApplicationContext(LookupGrandchildFactory(), parent: child)
        #expect(throws: ContextError.noSuchObject(key: "nowhere", searched: ["Grandchild", "Child", "Parent"], path: ["nowhere"])) {
            try grandchild.object("nowhere", as: LookupObject.self)
        }
    }

    // MARK: Owning context

    @Test func parentSingletonResolvesItsDependenciesInTheParentEvenWhenAChildAsksFirst() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        let service: LookupDependent = try child.object("parentService")
        #expect(service.x.tag == "parent x")
        #expect(service.x === (try parent.object("x", as: LookupObject.self)))
        #expect(try parent.object("parentService", as: LookupDependent.self) === service)
    }

    @Test func childSingletonResolvesItsDependenciesInTheChild() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(try child.object("childService", as: LookupDependent.self).x.tag == "child x")
    }

    @Test func parentDefinitionCannotReachAChildsKeyEvenWhenTheChildAsks() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(throws: ContextError.noSuchObject(key: "onlyInChild", searched: ["Parent"], path: ["needsChildOnly", "onlyInChild"])) {
            try child.object("needsChildOnly", as: LookupDependent.self)
        }
    }

    // MARK: Inspection

    @Test func containsAnswersForOwnNamesAndTheParents() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(child.contains("onlyInChild"))
        #expect(child.contains("ONLYINCHILD"))
        #expect(child.contains("onlyInParent"))
        #expect(child.contains("parentAlias"))
        #expect(!child.contains("missing"))
        #expect(!child.contains(""))
    }

    @Test func containsDoesNotMakeObjects() throws {
        // `needsChildOnly` would throw if made: `contains` answering true proves it only looks.
        let parent = try ApplicationContext(LookupParentFactory())
        #expect(parent.contains("needsChildOnly"))
    }

    @Test func keysNameAndParentDescribeTheContext() throws {
        let parent = try ApplicationContext(LookupParentFactory())
        let child = try ApplicationContext(LookupChildFactory(), parent: parent)
        #expect(child.keys == ["x", "childService", "shadowed", "onlyInChild", "replacement"])
        #expect(parent.keys == ["x", "parentService", "onlyInParent", "shadowed", "needsChildOnly", "replaced"])
        #expect(child.name == "Child")
        #expect(parent.name == "Parent")
        #expect(child.parent === parent)
        #expect(parent.parent == nil)
    }

    // MARK: Types

    @Test func typedAndInferredLookupsReturnTheSameObject() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        let inferred: LookupObject = try context.object("mailService")
        let typed = try context.object("mailService", as: LookupObject.self)
        #expect(inferred === typed)
        #expect(try context.object("number", as: Int.self) == 42)
    }

    @Test func lookupAsTheWrongTypeIsTypeMismatch() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        #expect(throws: ContextError.typeMismatch(key: "number", expected: "Swift.String", actual: "Swift.Int", path: ["number"])) {
            try context.object("number", as: String.self)
        }
    }

    @Test func lookupOfAMadeSingletonAsTheWrongTypeIsTypeMismatch() throws {
        let context = try ApplicationContext(LookupValuesFactory())
        #expect(try context.object("name", as: String.self) == "Trellis")
        #expect(throws: ContextError.typeMismatch(key: "name", expected: "Swift.Int", actual: "Swift.String", path: ["name"])) {
            try context.object("name", as: Int.self)
        }
        #expect(try context.object("name", as: String.self) == "Trellis")
    }

    @Test func typeMismatchOfAParentObjectWithTheChildsKeyKeepsBothOnThePath() throws {
        // The child's `k` asks for the parent's `k` (through its alias) as the wrong type: the
        // path is child `k` → parent `k`, two entries, though both have one key and one index.
        let parent = try ApplicationContext(LookupSameKeyParentFactory())
        let child = try ApplicationContext(LookupSameKeyChildFactory(), parent: parent)
        #expect(throws: ContextError.typeMismatch(key: "k", expected: "Swift.String", actual: "Swift.Int", path: ["k", "k"])) {
            try child.object("k", as: String.self)
        }
    }

    @Test func typeMismatchThroughAnAliasNamesTheKey() throws {
        let context = try ApplicationContext(LookupNamesFactory())
        do {
            _ = try context.object("postman", as: Int.self)
            Issue.record("expected typeMismatch")
        } catch {
            guard case let .typeMismatch(key, _, _, _) = error else {
                Issue.record("expected typeMismatch, got \(error)")
                return
            }
            #expect(key == "mailService")
        }
    }

    @Test func structObjectIsAValue() throws {
        let context = try ApplicationContext(LookupValuesFactory())
        var point: LookupPoint = try context.object("point")
        point.x = 100
        #expect(point.x == 100)
        #expect(try context.object("point", as: LookupPoint.self) == LookupPoint(x: 1, y: 2))
    }

    @Test func closureObjectCanBeLookedUpAndCalled() throws {
        let context = try ApplicationContext(LookupValuesFactory())
        let greet = try context.object("greeter", as: ((String) -> String).self)
        #expect(greet("Ada") == "Hello, Ada")
    }

    @Test func existentialObjectIsLookedUpAsItsProtocol() throws {
        let context = try ApplicationContext(LookupValuesFactory())
        let clock: any LookupClock = try context.object("clock")
        #expect(clock.now == 7)
        #expect(try context.object("clock", as: (any LookupClock).self).now == 7)
    }

    @Test func classObjectIsLookedUpAsItsSuperclassOrAnyObject() throws {
        let context = try ApplicationContext(LookupValuesFactory())
        let dog: LookupDog = try context.object("dog")
        #expect(try context.object("dog", as: LookupAnimal.self) === dog)
        #expect(try context.object("dog", as: AnyObject.self) === dog)
        #expect(try context.object("dog", as: Any.self) is LookupDog)
    }
}
