import Testing
import Trellis

// MARK: - Fixtures

private final class Part: Sendable {
    let key: String
    let parts: [Part]
    init(_ key: String, _ parts: [Part] = []) {
        self.key = key
        self.parts = parts
    }
}

private struct ValidateFailure: Error, CustomStringConvertible {
    var description: String { "validate failure" }
}

private final class NeedsMissing: @unchecked Sendable {
    // Safe: only touched by the validation's own lookups.
    @Inject var missing: Part
}

private final class NeedsAsyncPool: @unchecked Sendable {
    // Safe: written by the injecting context before the object is handed out.
    @Inject var pool: Part
}

/// The problems validate must find in async definitions.
private struct BrokenAsyncFactory: ObjectFactory {
    var contextName: String { "Broken" }

    var definitions: Definitions {
        createSingleton("unknown") { r async throws -> Part in Part("unknown", [try await r.object("nowhere")]) }
        createSingleton("throws") { () async throws -> Part in
            await Task.yield()
            throw ValidateFailure()
        }
        createPrototype("mismatch") { r async throws -> Part in
            let wrong: String = try await r.object("fine")
            return Part(wrong)
        }
        createSingleton("cycleA") { r async throws -> Part in Part("cycleA", [try await r.object("cycleB")]) }
        createSingleton("cycleB") { r async throws -> Part in Part("cycleB", [try await r.object("cycleA")]) }
        createEagerSingleton("uninjectable") { () async -> NeedsMissing in NeedsMissing() }
        createSingleton("fine") { () async -> Part in Part("fine") }
    }
}

/// Every kind of synchronous → async edge that timing could break, and edges that are safe.
private struct EdgesFactory: ObjectFactory {
    var contextName: String { "Edges" }

    var definitions: Definitions {
        createEagerSingleton("config") { () async -> Part in Part("config") }
        createSingleton("lazyAsync") { () async -> Part in Part("lazyAsync") }
        createPrototype("asyncPrototype") { () async -> Part in Part("asyncPrototype") }
        // Unsafe: a synchronous closure meeting a lazy async singleton; declared after it, so
        // validate has made it by then: reported anyway.
        createSingleton("toLazy") { r in Part("toLazy", [try r.object("lazyAsync")]) }
        // Unsafe: an async prototype is never made for a synchronous caller.
        createSingleton("toPrototype") { r in Part("toPrototype", [try r.object("asyncPrototype")]) }
        // Unsafe: pulled in by an async eager singleton, so it runs in the concurrent phase,
        // where it cannot get the async eager "config".
        createEagerSingleton("puller") { r async throws -> Part in Part("puller", [try await r.object("pulled")]) }
        createSingleton("pulled") { r in Part("pulled", [try r.object("config")]) }
        // Safe: a synchronous eager singleton (made after the concurrent phase) and a lazy one
        // nobody pulls in during it, both meeting the async eager "config".
        createEagerSingleton("syncEager") { r in Part("syncEager", [try r.object("config")]) }
        createSingleton("lazyReader") { r in Part("lazyReader", [try r.object("config")]) }
    }
}

/// A synchronous singleton whose `@Inject` property names a lazy async singleton.
private struct InjectedEdgeFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("pool") { () async -> Part in Part("pool") }
        createSingleton("screen") { NeedsAsyncPool() }
    }
}

/// Validates cleanly: every synchronous closure meets only async eager singletons, and none of
/// them runs during the concurrent phase.
private struct CleanAsyncFactory: ObjectFactory {
    var contextName: String { "Clean" }

    var definitions: Definitions {
        createEagerSingleton("config") { () async -> Part in
            await Task.yield()
            return Part("config")
        }
        createEagerSingleton("pool") { r async throws -> Part in Part("pool", [try await r.object("config")]) }
        createSingleton("repository") { r in Part("repository", [try r.object("pool")]) }
        createEagerSingleton("service") { r in Part("service", [try r.object("repository")]) }
        createPrototype("report") { r async throws -> Part in Part("report", [try await r.object("repository")]) }
        createSingleton("cache") { r async throws -> Part in Part("cache", [try await r.object("pool")]) }
    }
}

/// Cycles that cross from a synchronous closure to an async definition: one through closures, one
/// through `dependsOn` names alone.
private struct CrossingCyclesFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("syncSide") { r in Part("syncSide", [try r.object("asyncSide")]) }
        createSingleton("asyncSide") { r async throws -> Part in Part("asyncSide", [try await r.object("syncSide")]) }
        createSingleton("syncOrdered") { Part("syncOrdered") }.dependsOn("asyncOrdered")
        createSingleton("asyncOrdered") { () async -> Part in Part("asyncOrdered") }.dependsOn("syncOrdered")
    }
}

private final class LazyPoolScreen: @unchecked Sendable {
    // Unchecked: as `NeedsAsyncPool`.
    @Inject(.lazy) var pool: Part
}

/// A lazy property naming an async singleton: lazy itself, or eager.
private struct LazyPropertyOfAsyncFactory: ObjectFactory {
    let eager: Bool
    var definitions: Definitions {
        if eager {
            createEagerSingleton("pool") { () async -> Part in Part("pool") }
        } else {
            createSingleton("pool") { () async -> Part in Part("pool") }
        }
        createSingleton("screen") { LazyPoolScreen() }
        createSingleton("asyncScreen") { () async -> LazyPoolScreen in LazyPoolScreen() }
    }
}

private func keysOfRequiresAwait(_ report: ValidationReport) -> [(key: String, path: [String])] {
    report.problems.compactMap(\.requiresAwaitKeyAndPath)
}

private extension ObjectFactory {
    /// An async eager singleton whose closure fails after a suspension.
    func failingAsyncEagerSingleton(_ key: String) -> Definition {
        createEagerSingleton(key) { () async throws -> Part in
            await Task.yield()
            throw ValidateFailure()
        }
    }
}

/// An async eager singleton that fails, and synchronous eager ones that need it: by `dependsOn`
/// and by a lookup. A start fails at `cache`; the others are never made.
private struct FailingAsyncEagerFactory: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("cache")
        createEagerSingleton("server") { Part("server") }.dependsOn("cache")
        createEagerSingleton("warmer") { r in Part("warmer", [try r.object("cache")]) }
    }
}

/// `a` (async eager) fails; `b` (async eager) looks up the synchronous `s` during the start's
/// concurrent phase, whose closure looks up `a`: a problem of its own, whether `a` fails or not.
private struct FailingAndRestrictedFactory: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("a")
        createEagerSingleton("b") { r async throws -> Part in try await r.object("s") }
        createSingleton("s") { r in try r.object("a", as: Part.self) }
    }
}

/// `a` (async eager) fails; a prototype, a lazy and a weak singleton look it up synchronously:
/// made after a successful start, they would find it made.
private final class WeakHolder: Sendable {}

private struct FailingAsyncEagerAndLaterLookupsFactory: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("a")
        createPrototype("p") { r in try r.object("a", as: Part.self) }
        createSingleton("s") { r in try r.object("a", as: Part.self) }
        createWeakSingleton("w") { r -> WeakHolder in
            _ = try r.object("a", as: Part.self)
            return WeakHolder()
        }
    }
}

/// A parent whose synchronous chain `pt → ps → x` ends at its lazy async `x`.
private struct ChainToLazyAsyncParent: ObjectFactory {
    var definitions: Definitions {
        createSingleton("x") { () async -> Part in Part("parent x") }
        createSingleton("ps") { r in try r.object("x", as: Part.self) }.aliases("psAlias")
        createSingleton("pt") { r in try r.object("ps", as: Part.self) }
    }
}

/// A child with a failing async eager `x` and a `ps` of its own, neither on `t`'s path.
private struct SameNamesChild: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("x")
        createSingleton("t") { r in try r.object("pt", as: Part.self) }
        createSingleton("ps") { Part("child ps") }
    }
}

/// As `SameNamesChild`, with `t` looking up the parent's `ps` by an alias the child lacks.
private struct SameNamesDirectChild: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("x")
        createSingleton("t") { r in try r.object("psAlias", as: Part.self) }
        createSingleton("ps") { Part("child ps") }
    }
}

/// A parent with a synchronous `x`, which the child's failing async eager `x` shadows.
private struct PlainXParent: ObjectFactory {
    var definitions: Definitions { createSingleton("x") { Part("parent x") } }
}

private struct FailingXOverPlainParent: ObjectFactory {
    var definitions: Definitions {
        failingAsyncEagerSingleton("x")
        createSingleton("s") { r in try r.object("x", as: Part.self) }
    }
}

// MARK: - Tests

/// A synchronous singleton whose `@Inject` property names an async eager singleton, made during
/// the concurrent phase by an async eager singleton's awaited lookup (its properties are then
/// filled by async lookups); `alsoReached` adds a synchronous lookup of it then, which injects
/// it synchronously when it comes first: from a synchronous closure an async eager singleton
/// pulls in, or from an async closure's lookup written without `await`.
private final class LazyRepositoryHolder: @unchecked Sendable {
    // Safe: read by the validation's and the start's own lookups only.
    @Inject(.lazy) var repository: NeedsAsyncPool
}

private struct PropertyOfAsyncEagerFactory: ObjectFactory {
    enum SynchronousLookup {
        case none, fromASynchronousClosure, fromAnAsyncClosureWithoutAwait, fromAnAsyncClosureWithAndWithoutAwait, fromALazyPropertyRead

        /// The route a start fails by when the synchronous lookup comes first.
        var route: [String] {
            switch self {
            case .none: []
            case .fromASynchronousClosure: ["worker", "reader", "repository", "pool"]
            case .fromAnAsyncClosureWithoutAwait, .fromAnAsyncClosureWithAndWithoutAwait: ["worker", "repository", "pool"]
            case .fromALazyPropertyRead: ["worker", "holder", "repository", "pool"]
            }
        }
    }
    let alsoReached: SynchronousLookup

    /// The synchronous form of the lookup, from async code.
    private static func synchronously(_ r: Resolver) throws(ContextError) -> NeedsAsyncPool { try r.object("repository") }

    /// A synchronous first read of a `.lazy` property, from async code.
    private static func synchronously(_ holder: LazyRepositoryHolder) throws(ContextError) -> NeedsAsyncPool { try holder.$repository.get() }

    var definitions: Definitions {
        createEagerSingleton("pool") { () async -> Part in
            await Task.yield()
            return Part("pool")
        }
        createSingleton("repository") { NeedsAsyncPool() }
        createEagerSingleton("server") { r async throws -> Part in
            let repository: NeedsAsyncPool = try await r.object("repository")
            return Part("server", [repository.pool])
        }
        switch alsoReached {
        case .none:
            Definitions()
        case .fromASynchronousClosure:
            createSingleton("reader") { r in Part("reader", [try r.object("repository", as: NeedsAsyncPool.self).pool]) }
            createEagerSingleton("worker") { r async throws -> Part in Part("worker", [try await r.object("reader")]) }
        case .fromAnAsyncClosureWithoutAwait:
            createEagerSingleton("worker") { r async throws -> Part in
                await Task.yield()
                return Part("worker", [try Self.synchronously(r).pool])
            }
        case .fromAnAsyncClosureWithAndWithoutAwait:
            createEagerSingleton("worker") { r async throws -> Part in
                let first = try Self.synchronously(r)
                let _: NeedsAsyncPool = try await r.object("repository")
                return Part("worker", [first.pool])
            }
        case .fromALazyPropertyRead:
            createSingleton("holder") { LazyRepositoryHolder() }
            createEagerSingleton("worker") { r async throws -> Part in
                let holder: LazyRepositoryHolder = try await r.object("holder")
                return Part("worker", [try Self.synchronously(holder).pool])
            }
        }
    }
}

@Suite struct AsyncValidateTests {
    @Test func asyncValidateFindsTheProblemsOfAsyncDefinitions() async throws {
        let report = await ApplicationContext.validate(BrokenAsyncFactory())
        let problems = report.problems
        #expect(problems.contains { if case let .noSuchObject(key, _, path) = $0 { key == "nowhere" && path == ["unknown", "nowhere"] } else { false } }, "\(report)")
        #expect(problems.contains { $0.creationFailure?.key == "throws" && $0.creationFailure?.underlying is ValidateFailure }, "\(report)")
        #expect(problems.contains { if case let .typeMismatch(key, _, _, path) = $0 { key == "fine" && path == ["mismatch", "fine"] } else { false } }, "\(report)")
        #expect(problems.contains { $0.cyclePath.map { Set($0) == ["cycleA", "cycleB"] && $0.first == $0.last } == true }, "\(report)")
        #expect(problems.contains { if case let .unresolvedInjection(_, property, _) = $0 { property == "missing" } else { false } }, "\(report)")
        // Only those: the healthy async definition and the async eager one were made.
        #expect(problems.count == 5, "\(report)")
        #expect(!problems.contains { $0.requiresAwaitKeyAndPath != nil }, "\(report)")
        #expect(report.findings.contains { $0.definition == "unknown" })
    }

    @Test func aFailingAsyncEagerSingletonIsReportedOnceNotAsANeedToAwaitInWhatNeedsIt() async throws {
        // Docs/Testing.md: a definition that needs a broken one gets the same problem, reported
        // once; synchronous eager singletons may use async eager ones (Docs/Async.md), so their
        // lookups of it are not missing an `await`.
        let report = await ApplicationContext.validate(FailingAsyncEagerFactory())
        #expect(report.problems.count == 1, "\(report)")
        #expect(report.problems.first?.creationFailure?.key == "cache", "\(report)")
    }

    @Test func aFailingAsyncEagerSingletonIsNotAlsoANeedToAwaitInWhatLooksItUpAfterTheStart() async throws {
        let report = await ApplicationContext.validate(FailingAsyncEagerAndLaterLookupsFactory())
        #expect(report.problems.count == 1, "\(report)")
        #expect(report.problems.first?.creationFailure?.key == "a", "\(report)")
    }

    @Test func aFailingAsyncEagerSingletonShadowingAParentsIsStillReportedOnce() async throws {
        let parent = try await ApplicationContext(PlainXParent())
        let report = await ApplicationContext.validate(FailingXOverPlainParent(), parent: parent)
        #expect(report.problems.count == 1, "\(report)")
        #expect(report.problems.first?.creationFailure?.key == "x", "\(report)")
    }

    @Test func aFailingAsyncEagerSingletonDoesNotHideAParentsEdgeToADefinitionOfTheSameName() async throws {
        let parent = try await ApplicationContext(ChainToLazyAsyncParent())
        let report = await ApplicationContext.validate(SameNamesChild(), parent: parent)
        #expect(report.problems.contains { $0.requiresAwaitKeyAndPath.map { $0.key == "x" && $0.path == ["t", "pt", "ps", "x"] } == true }, "\(report)")
        // Also where every step of the path is a name the child defines too.
        let direct = await ApplicationContext.validate(SameNamesDirectChild(), parent: parent)
        #expect(direct.problems.contains { $0.requiresAwaitKeyAndPath.map { $0.key == "x" && $0.path == ["t", "ps", "x"] } == true }, "\(direct)")
    }

    @Test func aFailingAsyncEagerSingletonDoesNotHideASynchronousClosuresEdgeToItInTheConcurrentPhase() async throws {
        let report = await ApplicationContext.validate(FailingAndRestrictedFactory())
        #expect(report.problems.contains { $0.creationFailure?.key == "a" }, "\(report)")
        #expect(report.problems.contains { $0.requiresAwaitKeyAndPath.map { $0.key == "a" && $0.path == ["b", "s", "a"] } == true }, "\(report)")
    }

    @Test func synchronousValidateCannotMakeAsyncDefinitionsAndSaysSo() throws {
        let report = Sync.validate(BrokenAsyncFactory())
        #expect(report.problems.contains { $0.requiresAwaitKeyAndPath?.key == "fine" }, "\(report)")
        #expect(report.problems.contains { $0.requiresAwaitKeyAndPath?.key == "uninjectable" }, "\(report)")
    }

    @Test func asyncValidateReportsEverySynchronousEdgeToAnAsyncDefinitionThatTimingCouldBreak() async throws {
        let report = await ApplicationContext.validate(EdgesFactory())
        let edges = keysOfRequiresAwait(report)
        #expect(edges.contains { $0.key == "lazyAsync" && $0.path.suffix(2) == ["toLazy", "lazyAsync"] }, "\(report)")
        #expect(edges.contains { $0.key == "asyncPrototype" && $0.path.suffix(2) == ["toPrototype", "asyncPrototype"] }, "\(report)")
        #expect(edges.contains { $0.key == "config" && $0.path.suffix(2) == ["pulled", "config"] }, "\(report)")
        // The safe edges are not reported.
        #expect(!edges.contains { $0.path.contains("syncEager") || $0.path.contains("lazyReader") }, "\(report)")
        #expect(report.problems.count == edges.count, "nothing else is wrong: \(report)")
    }

    @Test func aCycleCrossingFromSyncToAsyncIsReportedAsTheCycleOnly() async throws {
        // Docs/Async.md: such a cycle is `circularDependency`, not `requiresAwait`; its
        // synchronous-to-async edge is not reported a second time.
        let report = await ApplicationContext.validate(CrossingCyclesFactory())
        #expect(report.problems.count == 2, "\(report)")
        #expect(report.problems.contains { $0.cyclePath.map { Set($0) == ["syncSide", "asyncSide"] } == true }, "\(report)")
        #expect(report.problems.contains { $0.cyclePath.map { Set($0) == ["syncOrdered", "asyncOrdered"] } == true }, "\(report)")
        #expect(keysOfRequiresAwait(report).isEmpty, "\(report)")
    }

    @Test func aLazyPropertyNamingALazyAsyncSingletonIsReportedWhateverItsOwner() async throws {
        // Its getter reads synchronously: `requiresAwait` until the pool is made.
        let context = try await ApplicationContext(LazyPropertyOfAsyncFactory(eager: false))
        let screen = try Sync.object(context, "screen", as: LazyPoolScreen.self)
        let error = try #require(syncError { try screen.$pool.get() })
        #expect(error.requiresAwaitKeyAndPath?.key == "pool")
        // So validate reports it, for a synchronous owner and an async one alike...
        let report = await ApplicationContext.validate(LazyPropertyOfAsyncFactory(eager: false))
        let edges = keysOfRequiresAwait(report)
        #expect(edges.contains { $0.key == "pool" && $0.path.suffix(2) == ["screen", "pool"] }, "\(report)")
        #expect(edges.contains { $0.key == "pool" && $0.path.suffix(2) == ["asyncScreen", "pool"] }, "\(report)")
        // ...and not when the pool is eager: made before anyone can read it.
        #expect(await ApplicationContext.validate(LazyPropertyOfAsyncFactory(eager: true)).problems == [])
    }

    @Test func aSynchronousInjectionOfALazyAsyncSingletonIsReported() async throws {
        // A synchronous lookup of "screen" always throws requiresAwait until "pool" is made...
        let context = try await ApplicationContext(InjectedEdgeFactory())
        let error = try #require(syncError { try Sync.object(context, "screen", as: NeedsAsyncPool.self) })
        #expect(error.requiresAwaitKeyAndPath?.key == "pool")
        // ...so validate must report the edge: a factory that validates cleanly never throws it.
        let report = await ApplicationContext.validate(InjectedEdgeFactory())
        #expect(keysOfRequiresAwait(report).contains { $0.key == "pool" }, "\(report)")
    }

    /// Docs/Async.md: an object made by an async lookup has its properties filled by async
    /// lookups, so a synchronous singleton only async eager singletons ask for with `await`
    /// may name an async eager singleton in a property; every start succeeds, and validate
    /// says nothing.
    @Test func aPropertyOfAnObjectOnlyAwaitedLookupsMakeMayNameAnAsyncEagerSingleton() async throws {
        let report = await ApplicationContext.validate(PropertyOfAsyncEagerFactory(alsoReached: .none))
        #expect(report.problems == [], "\(report)")
        for _ in 0..<10 {
            let context = try await ApplicationContext(PropertyOfAsyncEagerFactory(alsoReached: .none))
            #expect(try Sync.object(context, "repository", as: NeedsAsyncPool.self).pool === (try Sync.object(context, "pool", as: Part.self)))
        }
    }

    /// ...but where a synchronous lookup may also reach it during the concurrent phase (a
    /// synchronous closure, an async closure's lookup written without `await`, also beside an
    /// awaited one, or a `.lazy` property's synchronous first read), the one to come first
    /// decides how it is injected: validate reports the property's edge, on the synchronous
    /// route a start fails by.
    @Test(arguments: [
        PropertyOfAsyncEagerFactory.SynchronousLookup.fromASynchronousClosure, .fromAnAsyncClosureWithoutAwait,
        .fromAnAsyncClosureWithAndWithoutAwait, .fromALazyPropertyRead,
    ])
    fileprivate func aPropertyOfAnObjectASynchronousLookupMayReachInTheConcurrentPhaseIsStillReported(_ lookup: PropertyOfAsyncEagerFactory.SynchronousLookup) async throws {
        let report = await ApplicationContext.validate(PropertyOfAsyncEagerFactory(alsoReached: lookup))
        let edges = keysOfRequiresAwait(report)
        #expect(edges.contains { $0.key == "pool" && $0.path == lookup.route }, "\(report)")
    }

    @Test func aFactoryThatValidatesCleanlyNeverThrowsRequiresAwaitAtStartOrAtALookup() async throws {
        #expect(await ApplicationContext.validate(CleanAsyncFactory()).problems == [])
        for _ in 0..<20 {
            let context = try await ApplicationContext(CleanAsyncFactory())
            for key in ["config", "pool", "repository", "service"] {
                #expect(try Sync.object(context, key, as: Part.self).key == key)
            }
            #expect(try await context.object("report", as: Part.self).parts.first === (try Sync.object(context, "repository", as: Part.self)))
            #expect(try await context.object("cache", as: Part.self).parts.first === (try Sync.object(context, "pool", as: Part.self)))
        }
    }

    @Test func asyncValidateOfAContextValidatesAScratchCopyAndLeavesTheContextAlone() async throws {
        struct Factory: ObjectFactory {
            let runs = ConcurrencyCounter()
            var definitions: Definitions {
                createSingleton("lazy") { [runs] () async -> Part in
                    runs.increment()
                    return Part("lazy")
                }
                createSingleton("broken") { r async throws -> Part in Part("broken", [try await r.object("nowhere")]) }
            }
        }
        let factory = Factory()
        let context = try await ApplicationContext(factory)
        let report = await context.validate()
        #expect(report.problems.count == 1, "\(report)")
        #expect(factory.runs.value == 1)
        // The context's own lazy singleton is still not made.
        #expect(syncError { try Sync.object(context, "lazy", as: Part.self) }?.requiresAwaitKeyAndPath?.key == "lazy")
        let made: Part = try await context.object("lazy")
        #expect(made.key == "lazy")
        #expect(factory.runs.value == 2)
    }

    @Test func asyncValidateGraphIsCompleteThroughAsyncClosures() async throws {
        let report = await ApplicationContext.validate(CleanAsyncFactory())
        let mermaid = report.graph(.mermaid)
        // pool → config, repository → pool, service → repository, report → repository, cache → pool
        for edge in ["c0_1 --> c0_0", "c0_2 --> c0_1", "c0_3 --> c0_2", "c0_4 --> c0_2", "c0_5 --> c0_1"] {
            #expect(mermaid.contains(edge), "\(edge) in \(mermaid)")
        }
    }

    @Test func asyncValidateWithAParentUsesItLikeTheSynchronousForm() async throws {
        struct Child: ObjectFactory {
            var definitions: Definitions {
                createSingleton("usesParent") { r async throws -> Part in Part("usesParent", [try await r.object("cache")]) }
            }
        }
        let parent = try await ApplicationContext(CleanAsyncFactory())
        #expect(await ApplicationContext.validate(Child(), parent: parent).problems == [])
        #expect(await ApplicationContext.validate(Child()).problems.count == 1)
    }
}
