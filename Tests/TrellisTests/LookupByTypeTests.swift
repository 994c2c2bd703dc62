import Testing
import Trellis
import TrellisTestSupport

private protocol Plugin { var id: String { get } }

private class Animal {
    let id: String
    init(_ id: String) { self.id = id }
}

private final class Dog: Animal, Plugin {}
private final class Cat: Animal {}
private struct Widget: Plugin { let id: String }
private final class Lonely { let id = "lonely" }
private final class Unused {}

private struct SingleFactory: ObjectFactory {
    let lonelyMade: InjCounter
    var definitions: Definitions {
        createSingleton("lonely") { [lonelyMade] in
            lonelyMade.increment()
            return Lonely()
        }
        createSingleton("dog") { Dog("dog") }
        createPrototype("count") { 7 }
    }
}

@Test func objectOfFindsTheSingleDefinitionByConcreteType() throws {
    let context = try ApplicationContext(SingleFactory(lonelyMade: InjCounter()))
    let dog = try context.object(of: Dog.self)
    #expect(dog === (try context.object("dog", as: Dog.self)))
    #expect(try context.object(of: Int.self) == 7)
}

@Test func objectOfFindsTheSingleDefinitionBySuperclass() throws {
    let context = try ApplicationContext(SingleFactory(lonelyMade: InjCounter()))
    let animal = try context.object(of: Animal.self)
    #expect(animal === (try context.object("dog", as: Dog.self)))
}

@Test func objectOfFindsTheSingleDefinitionByProtocol() throws {
    let context = try ApplicationContext(SingleFactory(lonelyMade: InjCounter()))
    let plugin = try context.object(of: (any Plugin).self)
    #expect(plugin.id == "dog")
    #expect(plugin as? Dog === (try context.object("dog", as: Dog.self)))
}

@Test func objectOfALazySingletonDeclaredWithItsTypeMakesItOnce() throws {
    let made = InjCounter()
    let context = try ApplicationContext(SingleFactory(lonelyMade: made))
    #expect(made.value == 0)
    let first = try context.object(of: Lonely.self)
    let second = try context.object(of: Lonely.self)
    #expect(first === second)
    #expect(first === (try context.object("lonely", as: Lonely.self)))
    #expect(made.value == 1)
}

@Test func objectOfATypeNothingMakesIsNoSuchObject() throws {
    let context = try ApplicationContext(SingleFactory(lonelyMade: InjCounter()))
    let error = try #require(throws: ContextError.self) { try context.object(of: Unused.self) }
    guard case let .noSuchObject(key, searched, _) = error else {
        Issue.record("expected noSuchObject, got \(error)")
        return
    }
    #expect(key.contains("Unused"))
    #expect(searched == ["SingleFactory"])
}

// MARK: - Several candidates

private struct ManyFactory: ObjectFactory {
    var contextName: String { "Many" }
    var definitions: Definitions {
        createSingleton("rex") { Dog("rex") }
        createSingleton("tom") { Cat("tom") }
        createPrototype("gear") { Widget(id: "gear") }
        createSingleton("lonely") { Lonely() }
        createEagerSingleton("fido") { Dog("fido") }
        createPrototype("erased") { () -> Any in Widget(id: "erased") }
        createSingleton("declaredAsPlugin") { () -> any Plugin in Widget(id: "declaredAsPlugin") }
    }
}

@Test func objectOfWithSeveralCandidatesIsAmbiguousNamingEveryCandidate() throws {
    let context = try ApplicationContext(ManyFactory())
    let error = try #require(throws: ContextError.self) { try context.object(of: Animal.self) }
    guard case let .ambiguousType(type, candidates) = error else {
        Issue.record("expected ambiguousType, got \(error)")
        return
    }
    #expect(type.hasSuffix("Animal"))
    #expect(candidates == ["rex", "tom", "fido"])
    for key in ["rex", "tom", "fido"] { #expect(error.description.contains(key)) }
}

@Test func objectOfAProtocolWithSeveralCandidatesIsAmbiguous() throws {
    let context = try ApplicationContext(ManyFactory())
    let error = try #require(throws: ContextError.self) { try context.object(of: (any Plugin).self) }
    guard case let .ambiguousType(_, candidates) = error else {
        Issue.record("expected ambiguousType, got \(error)")
        return
    }
    #expect(candidates == ["rex", "gear", "fido", "erased", "declaredAsPlugin"])
}

@Test func objectsOfReturnsEveryMatchBySuperclassInDeclarationOrder() throws {
    let context = try ApplicationContext(ManyFactory())
    #expect(try context.objects(of: Animal.self).map(\.id) == ["rex", "tom", "fido"])
    #expect(try context.objects(of: Dog.self).map(\.id) == ["rex", "fido"])
    #expect(try context.objects(of: Dog.self).first === (try context.object("rex", as: Dog.self)))
}

@Test func objectsOfReturnsEveryMatchByProtocolWhateverTheDeclaredType() throws {
    let context = try ApplicationContext(ManyFactory())
    let ids = try context.objects(of: (any Plugin).self).map(\.id)
    #expect(ids == ["rex", "gear", "fido", "erased", "declaredAsPlugin"])
}

private final class Part {}

private struct PartsFactory: ObjectFactory {
    let partsMade: InjCounter
    var definitions: Definitions {
        createPrototype("declared") { [partsMade] in
            partsMade.increment()
            return Part()
        }
        createPrototype("erased") { [partsMade] () -> Any in
            partsMade.increment()
            return Part()
        }
    }
}

@Test func objectsOfMakesOneNewInstanceOfEachMatchingPrototypePerCall() throws {
    let made = InjCounter()
    let context = try ApplicationContext(PartsFactory(partsMade: made))
    let first = try context.objects(of: Part.self)
    #expect(made.value == 2)
    let second = try context.objects(of: Part.self)
    #expect(made.value == 4)
    #expect(first.count == 2)
    #expect(second.count == 2)
    #expect(first[0] !== second[0])
    #expect(first[1] !== second[1])
}

@Test func objectsOfATypeNothingMakesIsEmpty() throws {
    let context = try ApplicationContext(ManyFactory())
    #expect(try context.objects(of: Unused.self).isEmpty)
}

// MARK: - Parents

private struct PetParentFactory: ObjectFactory {
    var contextName: String { "Pets" }
    var definitions: Definitions {
        createSingleton("rex") { Dog("parent rex") }
        createSingleton("tom") { Cat("parent tom") }
    }
}

private struct PetChildFactory: ObjectFactory {
    var contextName: String { "Room" }
    var definitions: Definitions {
        createSingleton("felix") { Cat("child felix") }
        createSingleton("rex") { Dog("child rex") }
        createSingleton("kitty") { Cat("child kitty") }
    }
}

private struct ShadowWithOtherTypeFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("rex") { Lonely() }
    }
}

@Test func objectsOfListsOwnMatchesInDeclarationOrderThenTheParents() throws {
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(PetChildFactory(), parent: parent)
    #expect(try child.objects(of: Cat.self).map(\.id) == ["child felix", "child kitty", "parent tom"])
    #expect(try parent.objects(of: Cat.self).map(\.id) == ["parent tom"])
}

@Test func childDefinitionShadowsTheParentsWithTheSameKey() throws {
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(PetChildFactory(), parent: parent)
    #expect(try child.objects(of: Dog.self).map(\.id) == ["child rex"])
    #expect(try child.object(of: Dog.self).id == "child rex")
    #expect(try parent.object(of: Dog.self).id == "parent rex")
}

@Test func childDefinitionOfAnotherTypeStillShadowsTheParents() throws {
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(ShadowWithOtherTypeFactory(), parent: parent)
    #expect(try child.objects(of: Dog.self).isEmpty)
    #expect(try child.objects(of: Lonely.self).count == 1)
}

/// A child whose default alias (`rex` of `Rex`) and explicit alias (`tom`) are the parent's keys.
private struct AliasOnlyChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("Rex") { Lonely() }
        createSingleton("other") { Lonely() }.aliases("tom")
    }
}

@Test func aChildsAliasEqualToAParentsKeyShadowsNothingForLookupsByType() throws {
    // Docs/Injection.md, "Lookup by type": a child's definition shadows a parent's with the
    // same key; the parent's stays reachable by its other names, and by its type.
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(AliasOnlyChildFactory(), parent: parent)
    #expect(try child.objects(of: Dog.self).map(\.id) == ["parent rex"])
    #expect(try child.object(of: Cat.self).id == "parent tom")
}

@Test func objectOfFindsASingleMatchInTheParent() throws {
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(ShadowWithOtherTypeFactory(), parent: parent)
    #expect(try child.object(of: Cat.self) === (try parent.object("tom", as: Cat.self)))
}

@Test func ambiguityAcrossParentAndChildNamesCandidatesFromBoth() throws {
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(PetChildFactory(), parent: parent)
    let error = try #require(throws: ContextError.self) { try child.object(of: Cat.self) }
    guard case let .ambiguousType(_, candidates) = error else {
        Issue.record("expected ambiguousType, got \(error)")
        return
    }
    // Docs/Injection.md, "Lookup by type": every candidate by its key, the parent's too.
    #expect(candidates == ["felix", "kitty", "tom"])
}

/// A child whose alias `tom` is a parent's key, and a cat of its own.
private struct CatAliasChildFactory: ObjectFactory {
    var contextName: String { "Room" }
    var definitions: Definitions {
        createSingleton("felix") { Cat("child felix") }.aliases("tom")
    }
}

@Test func aParentsCandidateWhoseKeyTheChildAnswersToIsNamedWithItsContext() throws {
    // Looked up through the child, `tom` is the child's `felix`: the parent's is `Pets.tom`.
    let parent = try ApplicationContext(PetParentFactory())
    let child = try ApplicationContext(CatAliasChildFactory(), parent: parent)
    let error = try #require(throws: ContextError.self) { try child.object(of: Cat.self) }
    guard case let .ambiguousType(_, candidates) = error else {
        Issue.record("expected ambiguousType, got \(error)")
        return
    }
    #expect(candidates == ["felix", "Pets.tom"])
}

private final class Report {}

private struct UnrelatedClassesFactory: ObjectFactory {
    let made: InjCounter
    var definitions: Definitions {
        createSingleton("lonely") { [made] in
            made.increment()
            return Lonely()
        }
        createPrototype("cat") { [made] in
            made.increment()
            return Cat("cat")
        }
        createSingleton("report") { () async -> Report in Report() }
        createSingleton("dog") { Dog("dog") }
    }
}

@Test func lookupByClassSkipsDefinitionsDeclaringAnUnrelatedClassWithoutMakingThem() throws {
    let made = InjCounter()
    let context = try ApplicationContext(UnrelatedClassesFactory(made: made))
    // 'report' is async: had it been made to learn its type, a synchronous lookup would throw
    // requiresAwait.
    #expect(try context.object(of: Dog.self) === (try context.object("dog", as: Dog.self)))
    #expect(try context.objects(of: Unused.self).isEmpty)
    #expect(made.value == 0)
}

@Test func asyncLookupByClassSkipsDefinitionsDeclaringAnUnrelatedClassWithoutMakingThem() async throws {
    let made = InjCounter()
    let context = try await ApplicationContext(UnrelatedClassesFactory(made: made))
    #expect(try await context.objects(of: Animal.self).count == 2)
    #expect(made.value == 1)
    #expect(try await context.objects(of: Report.self).count == 1)
    #expect(made.value == 1)
}

/// A request's value, and the kinds of value a cast looks past.
private struct Visit { let id: Int }
private enum Mood { case calm }

private struct ValueDeclaredFactory: ObjectFactory {
    let made: InjCounter
    var definitions: Definitions {
        createSingleton("visit") { [made] in
            made.increment()
            return Visit(id: 1)
        }
        createSingleton("mood") { [made] in
            made.increment()
            return Mood.calm
        }
        createPrototype("visitCopy") { [made] in
            made.increment()
            return Visit(id: 2)
        }
        createSingleton("dog") { Dog("dog") }
    }
}

@Test func lookupByClassSkipsDefinitionsDeclaringAStructOrEnumWithoutMakingThem() throws {
    let made = InjCounter()
    let context = try ApplicationContext(ValueDeclaredFactory(made: made))
    #expect(try context.object(of: Dog.self) === (try context.object("dog", as: Dog.self)))
    #expect(try context.objects(of: Cat.self).isEmpty)
    #expect(made.value == 0)
}

@Test func asyncLookupByClassSkipsDefinitionsDeclaringAStructOrEnumWithoutMakingThem() async throws {
    let made = InjCounter()
    let context = try await ApplicationContext(ValueDeclaredFactory(made: made))
    #expect(try await context.objects(of: Animal.self).count == 1)
    #expect(made.value == 0)
}

/// A class singleton in a cycle, and values: none is a `Money`.
private struct MoneyLessFactory: ObjectFactory {
    let made: InjCounter
    var definitions: Definitions {
        createSingleton("a") { [made] r -> Dog in
            made.increment()
            return Dog("a " + (try r.object("b", as: Dog.self)).id)
        }
        createSingleton("b") { [made] r -> Dog in
            made.increment()
            return Dog("b " + (try r.object("a", as: Dog.self)).id)
        }
        createSingleton("visit") { [made] in
            made.increment()
            return Visit(id: 4)
        }
        // A sequence, a range: plain values too (only an array, a set or a dictionary casts
        // element by element).
        createSingleton("deck") { [made] () throws -> Deck in
            made.increment()
            throw Broken()
        }
        createSingleton("ports") { [made] () -> ClosedRange<Int> in
            made.increment()
            return 8000...8010
        }
        // A type nested in a dictionary is not one.
        createSingleton("headers") { [made] () -> Dictionary<String, String>.Keys in
            made.increment()
            return ["accept": "*/*"].keys
        }
    }
}

private struct Deck: Sequence {
    func makeIterator() -> EmptyCollection<Int>.Iterator { EmptyCollection<Int>().makeIterator() }
}

private struct Broken: Error {}

/// A struct nothing in `MoneyLessFactory` is declared as.
private struct Money { let cents: Int }

@Test func lookupByStructSkipsDefinitionsDeclaringAClassOrAnotherValueWithoutMakingThem() async throws {
    // Docs/Injection.md, "What it has to make to find out": a class instance, or a `Visit`, is
    // never a `Money`, so the cycle between `a` and `b` is not made (and not thrown) to find out.
    let made = InjCounter()
    let context = try await ApplicationContext(MoneyLessFactory(made: made))
    #expect(throws: ContextError.self) { try Sync.object(of: Money.self, in: context) }
    #expect(try Sync.objects(of: Money.self, in: context).isEmpty)
    #expect(try await context.objects(of: Money.self).isEmpty)
    let error = try #require(syncError { try Sync.object(of: Money.self, in: context) })
    guard case .noSuchObject = error else {
        Issue.record("expected noSuchObject, got \(error)")
        return
    }
    #expect(made.value == 0)
}

/// Collections a cast looks into: an array of dogs is an array of animals.
private struct DogCollectionsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("dogs") { [Dog("a")] }
        createSingleton("dogsByName") { ["a": Dog("a")] }
    }
}

@Test func lookupByCollectionTypeMatchesCollectionsOfSubclassesByCasting() throws {
    // Docs/Injection.md: a cast looks past a collection's elements. (Without Foundation in the
    // process this is where the skip of values must not reach: with it, collections bridge.)
    let context = try ApplicationContext(DogCollectionsFactory())
    #expect(try context.objects(of: [Animal].self).map { $0.map(\.id) } == [["a"]])
    #expect(try context.object(of: [String: Animal].self)["a"]?.id == "a")
}

@Test func lookupByProtocolStillMakesAStructSingletonToLook() throws {
    let made = InjCounter()
    let context = try ApplicationContext(ValueDeclaredFactory(made: made))
    // Whether a value is a `Plugin` is left to the made value (as for any protocol).
    #expect(try context.objects(of: (any Plugin).self).map(\.id) == ["dog"])
    #expect(made.value == 3)
}

private struct LookedPastFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("maybeDog") { Dog("maybe") as Dog? }
        createSingleton("hashedCat") { AnyHashable(HashableCat()) }
        createSingleton("plainVisit") { Visit(id: 3) }
    }
}

private struct HashableCat: Hashable {}

@Test func lookupByClassStillFindsAnObjectInsideAValueACastLooksPast() throws {
    let context = try ApplicationContext(LookedPastFactory())
    // An optional's wrapped object is a `Dog` to a cast: declared `Dog?`, it is made and matched.
    #expect(try context.object(of: Dog.self).id == "maybe")
    #expect(try context.objects(of: Animal.self).map(\.id) == ["maybe"])
}

// MARK: A type probe is not the prototype's first object

private final class ProbedTool {}
private protocol ProbedService: AnyObject {}
private final class ProbedPrototype: ProbedService {
    @Inject var tool: ProbedTool
}

private struct ProbedFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("tool") { ProbedTool() }
        createPrototype("service") { () -> any ProbedService in ProbedPrototype() }
    }
}

@Test func aPrototypeProbedByATypeLookupStillRecordsItsInjectedEdges() throws {
    // The probe runs the closure only: the first injected object records the edge to `tool`
    // (Docs/Diagnostics.md, "The dependency graph").
    let context = try ApplicationContext(ProbedFactory())
    #expect(try context.objects(of: ProbedPrototype.self).isEmpty == false)
    _ = try context.object("service", as: (any ProbedService).self)
    #expect(context.graph().contains(#"c0_1 -> c0_0 [label="tool"];"#))
}

@Test func aPrototypeProbedByAnAsyncTypeLookupStillRecordsItsInjectedEdges() async throws {
    let context = try await ApplicationContext(ProbedFactory())
    #expect(try await context.objects(of: ProbedPrototype.self).isEmpty == false)
    _ = try await context.object("service", as: (any ProbedService).self)
    #expect(context.graph().contains(#"c0_1 -> c0_0 [label="tool"];"#))
}

// MARK: A parent's matches are its own

/// `rex` must be made to learn what it makes (it is declared as `Animal`); counted.
private struct CountedPetsFactory: ObjectFactory {
    let rexMade: InjCounter
    var definitions: Definitions {
        createSingleton("rex") { [rexMade] () -> Animal in
            rexMade.increment()
            return Dog("parent rex")
        }
        createSingleton("tom") { () -> Animal in Cat("parent tom") }
    }
}

/// Hides the parents' `rex`.
private struct ChildRexFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("rex") { Dog("child rex") }
    }
}

/// Hides nothing.
private struct BowlFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("bowl") { Lonely() }
    }
}

@Test func aChildsLookupByTypeNeitherMakesWhatTheChildHidesNorChangesTheParentsAnswer() throws {
    // Docs/Injection.md, "Lookup by type": a child's definition shadows a parent's with the same key.
    // The parent's matches are found by the parent's own lookup and kept by the parent; the
    // ones found while a child hid some must not become the parent's answer.
    let rexMade = InjCounter()
    let grandparent = try ApplicationContext(CountedPetsFactory(rexMade: rexMade))
    let parent = try ApplicationContext(BowlFactory(), parent: grandparent)
    let child = try ApplicationContext(ChildRexFactory(), parent: parent)
    #expect(try child.objects(of: Dog.self).map(\.id) == ["child rex"])
    #expect(try child.objects(of: Dog.self).map(\.id) == ["child rex"])
    #expect(rexMade.value == 0)
    #expect(try parent.objects(of: Dog.self).map(\.id) == ["parent rex"])
    #expect(try grandparent.objects(of: Dog.self).map(\.id) == ["parent rex"])
    #expect(rexMade.value == 1)
    // Now that the parents know their matches, a child still gets its own answer.
    #expect(try child.objects(of: Dog.self).map(\.id) == ["child rex"])
    #expect(try child.objects(of: Animal.self).map(\.id) == ["child rex", "parent tom"])
    let sibling = try ApplicationContext(ChildRexFactory(), parent: parent)
    #expect(try sibling.objects(of: Animal.self).map(\.id) == ["child rex", "parent tom"])
    #expect(try ApplicationContext(BowlFactory(), parent: parent).objects(of: Animal.self).map(\.id) == ["parent rex", "parent tom"])
}

@Test func anAsyncChildsLookupByTypeNeitherMakesWhatTheChildHidesNorChangesTheParentsAnswer() async throws {
    let rexMade = InjCounter()
    let grandparent = try await ApplicationContext(CountedPetsFactory(rexMade: rexMade))
    let parent = try await ApplicationContext(BowlFactory(), parent: grandparent)
    let child = try await ApplicationContext(ChildRexFactory(), parent: parent)
    #expect(try await child.objects(of: Dog.self).map(\.id) == ["child rex"])
    #expect(rexMade.value == 0)
    #expect(try await parent.objects(of: Dog.self).map(\.id) == ["parent rex"])
    #expect(try await child.objects(of: Animal.self).map(\.id) == ["child rex", "parent tom"])
    #expect(rexMade.value == 1)
}

@Test func aLookupByTypeInAFreshChildFindsTheParentsMatchesTheParentAlreadyKnows() throws {
    let rexMade = InjCounter()
    let parent = try ApplicationContext(CountedPetsFactory(rexMade: rexMade))
    #expect(try parent.objects(of: Animal.self).map(\.id) == ["parent rex", "parent tom"])
    for _ in 0..<3 {
        let request = try ApplicationContext(BowlFactory(), parent: parent)
        #expect(try request.object(of: Cat.self).id == "parent tom")
        #expect(try request.objects(of: Animal.self).map(\.id) == ["parent rex", "parent tom"])
        let error = try #require(throws: ContextError.self) { try request.object(of: Animal.self) }
        guard case let .ambiguousType(_, candidates) = error else {
            Issue.record("expected ambiguousType, got \(error)")
            continue
        }
        #expect(candidates.count == 2)
    }
    #expect(rexMade.value == 1)
}

// MARK: Many fresh children at once

/// Three singletons that must be made to learn what they are (declared as `Animal`), each
/// counted, and one declared as what it is.
private struct KennelFactory: ObjectFactory {
    let made: ConcurrencyCounter
    var definitions: Definitions {
        createSingleton("rex") { [made] () -> Animal in
            made.increment()
            return Dog("rex")
        }
        createSingleton("tom") { [made] () -> Animal in
            made.increment()
            return Cat("tom")
        }
        createSingleton("fido") { [made] () -> Animal in
            made.increment()
            return Dog("fido")
        }
        createSingleton("lassie") { Dog("lassie") }
    }
}

/// A request's own dog; the odd threads' children also hide the kennel's `fido`.
private struct VisitFactory: ObjectFactory {
    let thread: Int
    var definitions: Definitions {
        createSingleton("visitor") { [thread] in Dog("visitor \(thread)") }
        if thread % 2 == 1 {
            createSingleton("fido") { Lonely() }
        }
    }
}

@Test func freshChildrenLookingUpByTypeOnManyThreadsAtOnceEachGetTheirOwnAnswer() throws {
    // Docs/Injection.md, "Lookup by type": the parent's answer, found by whichever child asked
    // first and kept by the parent, is the same for every child; what one child hides is not.
    let rounds = 50, threads = 6
    let problems = Guarded<[String]>([])
    for round in 0..<rounds {
        let made = ConcurrencyCounter()
        let kennel = try ApplicationContext(KennelFactory(made: made))
        let start = ConcurrencyBarrier(parties: threads)
        let finished = ConcurrencyThreads.run(threads) { thread in
            start.arriveAndWait()
            do {
                let child = try ApplicationContext(VisitFactory(thread: thread), parent: kennel)
                let expected = ["visitor \(thread)", "rex"] + (thread % 2 == 1 ? [] : ["fido"]) + ["lassie"]
                let dogs = try child.objects(of: Dog.self).map(\.id)
                if dogs != expected { problems.withLock { $0.append("round \(round), thread \(thread): \(dogs)") } }
            } catch {
                problems.withLock { $0.append("round \(round), thread \(thread): \(error)") }
            }
        }
        try #require(finished, "threads did not finish: a lookup by type deadlocked")
        #expect(made.value == 3, "each singleton made once (round \(round))")
        #expect(try kennel.objects(of: Dog.self).map(\.id) == ["rex", "fido", "lassie"])
    }
    #expect(problems.value.isEmpty, "\(problems.value.prefix(5))")
}
