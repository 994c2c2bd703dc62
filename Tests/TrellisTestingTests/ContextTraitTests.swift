import Testing
import Trellis
import TrellisTesting
import TrellisTestSupport

// Docs/Testing.md, "A context per test": `@Test(.context(factory, overriding: doubles))` builds a fresh context for each test
// and each argument, current for the body; tests using it run in parallel (Swift Testing's
// default), each seeing only its own context and its own doubles.
//
// Every test case below checks, in `expectOwnFreshContext`, that its context is one no other test
// case saw, untouched, with its own double, and that nothing another test case sent reached it.

@Test(.context(ShopFactory()))
func theTraitMakesItsContextCurrentForTheBody() throws {
    let context = try #require(ApplicationContext.current)
    #expect(context.name == "ShopFactory")
    #expect(CheckoutFlow().mailer.tag == "production")
}

@Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "double")))
func theOverridingDoubleIsWhatPlainInitObjectsGet() throws {
    let flow = CheckoutFlow()
    flow.confirm(7)
    #expect(flow.mailer.tag == "double")
    #expect(try ApplicationContext.current?.object("mailer", as: (any ShopMailer).self).sent == [7])
}

@Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "double")))
func theContextIsBoundInAsyncTestsAndTheirChildTasks() async throws {
    let context = try #require(ApplicationContext.current)
    async let fromChild = CheckoutFlow().mailer.tag
    let fromGroup = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<4 { group.addTask { ApplicationContext.current === context } }
        return await group.allSatisfy { $0 }
    }
    #expect(await fromChild == "double")
    #expect(fromGroup)
}

@Test(.context { try await ApplicationContext(ShopFactory(), overriding: TaggedDoubles(tag: "closure")) })
func theClosureFormBuildsTheContext() async throws {
    try await expectOwnFreshContext(tag: "closure", argument: 1)
}

private let parallelArguments = Array(0..<25)

/// Eight test functions with eight different doubles, 25 arguments each: 200 test cases that
/// Swift Testing runs in parallel.
@Suite struct ParallelDoublesTests {
    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "a")), arguments: parallelArguments)
    func doublesA(argument: Int) async throws { try await expectOwnFreshContext(tag: "a", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "b")), arguments: parallelArguments)
    func doublesB(argument: Int) async throws { try await expectOwnFreshContext(tag: "b", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "c")), arguments: parallelArguments)
    func doublesC(argument: Int) async throws { try await expectOwnFreshContext(tag: "c", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "d")), arguments: parallelArguments)
    func doublesD(argument: Int) async throws { try await expectOwnFreshContext(tag: "d", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "e")), arguments: parallelArguments)
    func doublesE(argument: Int) async throws { try await expectOwnFreshContext(tag: "e", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "f")), arguments: parallelArguments)
    func doublesF(argument: Int) async throws { try await expectOwnFreshContext(tag: "f", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "g")), arguments: parallelArguments)
    func doublesG(argument: Int) async throws { try await expectOwnFreshContext(tag: "g", argument: argument) }

    @Test(.context(ShopFactory()), arguments: parallelArguments)
    func production(argument: Int) async throws { try await expectOwnFreshContext(tag: "production", argument: argument) }

    /// A synchronous parameterised test: each argument gets its own context too.
    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "sync")), arguments: parallelArguments)
    func synchronousTestCases(argument: Int) throws {
        let flow = CheckoutFlow()
        #expect(SeenTokens.recordFirst(flow.token.number))
        #expect(flow.scratchpad.claim())
        #expect(flow.mailer.tag == "sync")
        flow.confirm(argument)
        #expect(flow.mailer.sent == [argument])
    }
}

/// On a suite, the trait gives each test (and each argument) its own context.
@Suite(.context(ShopFactory(), overriding: TaggedDoubles(tag: "suite")))
struct SuiteTraitTests {
    @Test func firstTest() async throws { try await expectOwnFreshContext(tag: "suite", argument: 1) }

    @Test func secondTest() async throws { try await expectOwnFreshContext(tag: "suite", argument: 2) }

    @Test(arguments: 0..<10)
    func parameterisedTest(argument: Int) async throws { try await expectOwnFreshContext(tag: "suite", argument: argument) }

    @Test(.context(ShopFactory(), overriding: TaggedDoubles(tag: "test")))
    func aTestsOwnTraitWinsOverTheSuites() async throws { try await expectOwnFreshContext(tag: "test", argument: 3) }

    @Suite struct Nested {
        @Test func aNestedSuitesTestGetsItsOwnContextToo() async throws {
            try await expectOwnFreshContext(tag: "suite", argument: 4)
        }
    }
}

/// Async eager singletons are started: the trait uses the async initialiser.
final class LoadedConfig: Sendable {
    let currency = "EUR"
}

struct AsyncStartFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { () async -> LoadedConfig in
            await Task.yield()
            return LoadedConfig()
        }
    }
}

final class PriceLabel {
    @Inject var config: LoadedConfig
}

@Test(.context(AsyncStartFactory()))
func theTraitStartsAsyncEagerSingletons() throws {
    // A synchronous read gets an async definition only if it was made at start.
    #expect(try PriceLabel().$config.get().currency == "EUR")
}

/// How many contexts each `.context { … }` trait of `InnermostTraitTests` built, by name.
private enum OuterBuilds {
    static let counts = Guarded<[String: Int]>([:])
    static func built(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
    static func count(_ name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}

/// A context built by a trait that records it under `name`.
private func countedContext(_ name: String) async throws -> ApplicationContext {
    OuterBuilds.built(name)
    return try await ApplicationContext(ShopFactory(), overriding: TaggedDoubles(tag: name))
}

/// The innermost `.context` trait replaces the others (Docs/Testing.md, "On a suite"): the
/// suite's context, whose factory may start real eager singletons, is not built for a test with
/// a trait of its own, nor an outer suite's for a nested suite with one.
@Suite(.context { try await countedContext("outer") })
struct InnermostTraitTests {
    @Test(.context { try await countedContext("ownTrait") })
    func aTestsOwnTraitIsTheOnlyContextBuiltForIt() throws {
        #expect(OuterBuilds.count("outer") == 0)
        #expect(OuterBuilds.count("ownTrait") == 1)
        #expect(CheckoutFlow().mailer.tag == "ownTrait")
    }

    @Suite(.context { try await countedContext("nestedSuite") })
    struct NestedSuite {
        @Test func aNestedSuitesTraitReplacesTheOuterSuites() throws {
            #expect(OuterBuilds.count("outer") == 0)
            #expect(OuterBuilds.count("nestedSuite") == 1)
            #expect(CheckoutFlow().mailer.tag == "nestedSuite")
        }
    }
}

/// One trait value on a suite and on its test: one context per test case, not two.
private let sharedTrait: ContextTrait = .context { try await countedContext("shared") }

@Suite(sharedTrait)
struct SharedTraitTests {
    @Test(sharedTrait)
    func aTraitOnASuiteAndOnItsTestIsBuiltOnce() throws {
        #expect(OuterBuilds.count("shared") == 1)
        #expect(CheckoutFlow().mailer.tag == "shared")
    }
}
