import Testing
import Trellis
import TrellisTestSupport

// MARK: - Fixtures

private final class LargeItem: Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
}

/// Counts the eager singletons made.
private final class LargeCounter: Sendable {
    private let made = Guarded(0)
    var count: Int { made.withLock { $0 } }
    func increment() { made.withLock { $0 += 1 } }
}

/// `count` definitions `Item0 …`, generated with `for`: every tenth an eager singleton, every
/// tenth plus one a prototype, the rest lazy singletons; every one after the first depends on
/// the one before it through its closure.
private struct LargeFactory: ObjectFactory {
    let count: Int
    let counter: LargeCounter

    var definitions: Definitions {
        for index in 0..<count {
            if index.isMultiple(of: 10) {
                createEagerSingleton("Item\(index)") { counter.increment(); return LargeItem(index) }
            } else if index % 10 == 1 {
                createPrototype("Item\(index)") { r in
                    _ = try r.object("Item\(index - 1)", as: LargeItem.self)
                    return LargeItem(index)
                }
            } else {
                createSingleton("Item\(index)") { LargeItem(index) }
            }
        }
    }
}

// MARK: - Tests

@Suite struct LargeFactoryTests {
    static let size = 10_000

    @Test func largeFactoryStartsAndMakesOnlyItsEagerSingletons() throws {
        let counter = LargeCounter()
        let context = try ApplicationContext(LargeFactory(count: Self.size, counter: counter))
        #expect(counter.count == Self.size / 10)
        #expect(context.keys.count == Self.size)
        #expect(context.keys.first == "Item0")
        #expect(context.keys.last == "Item\(Self.size - 1)")
    }

    @Test func everyKeyOfALargeFactoryResolvesToItsObject() throws {
        let context = try ApplicationContext(LargeFactory(count: Self.size, counter: LargeCounter()))
        var wrong: [String] = []
        for index in 0..<Self.size {
            let key = "Item\(index)"
            if try context.object(key, as: LargeItem.self).index != index { wrong.append(key) }
        }
        #expect(wrong.isEmpty)
    }

    @Test func everyDefaultAliasOfALargeFactoryResolvesToTheSameObject() throws {
        let context = try ApplicationContext(LargeFactory(count: Self.size, counter: LargeCounter()))
        var wrong: [String] = []
        for index in 0..<Self.size {
            let byKey = try context.object("Item\(index)", as: LargeItem.self)
            let byUpper = try context.object("ITEM\(index)", as: LargeItem.self)
            let byLowerFirst = try context.object("item\(index)", as: LargeItem.self)
            let isPrototype = index % 10 == 1
            let same = isPrototype ? (byUpper.index == index && byLowerFirst.index == index) : (byKey === byUpper && byKey === byLowerFirst)
            if !same { wrong.append("Item\(index)") }
        }
        #expect(wrong.isEmpty)
    }

    @Test func largeFactoryAnswersNoSuchObjectForNamesItDoesNotHave() throws {
        let context = try ApplicationContext(LargeFactory(count: Self.size, counter: LargeCounter()))
        #expect(!context.contains("Item\(Self.size)"))
        #expect(!context.contains("iTEM5"))
        #expect(throws: ContextError.self) { try context.object("Item\(Self.size)", as: LargeItem.self) }
    }

    @Test func largeFactoryConfiguratorHasTwoDefaultAliasesPerKey() throws {
        let configurator = try ConfiguratorFromFactory(LargeFactory(count: Self.size, counter: LargeCounter()))
        let table = configurator.aliasTable
        #expect(table.count == 2 * Self.size)
        #expect(table["ITEM1234"] == "Item1234")
        #expect(table["item9999"] == "Item9999")
    }
}
