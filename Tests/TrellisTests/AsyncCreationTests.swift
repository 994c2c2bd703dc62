import Foundation
import Testing
import Trellis
import TrellisTestSupport

// An awaited lookup takes the steps a blocking one takes and differs only in how it waits
// (Docs/Async.md, "The async forms"): a synchronous closure it runs, and every property it can
// fill without waiting, are made as a blocking lookup makes them, and only what must be awaited
// is (Docs/Performance.md, "Awaited requests"). These tests pin what that must not change.

private final class Counted: Sendable {
    let key: String
    init(_ key: String) { self.key = key }
}

private protocol Greeter: AnyObject {}
private final class EnglishGreeter: Greeter {}
private final class Visitor {}

/// A handler whose properties name singletons nobody made yet: one as its class, one as a
/// protocol it is declared apart from, and a prototype with a property of its own.
private final class AwaitedHandler {
    @Inject var visitor: Visitor
    @Inject("greeter") var greeting: any Greeter
    @Inject var part: CountedPart
}

private final class CountedPart {
    @Inject var visitor: Visitor
}

/// Synchronous closures that count their runs: a singleton, prototypes with properties, a
/// singleton whose first run throws.
private struct CountingFactory: ObjectFactory {
    let runs = Guarded<[String: Int]>([:])

    /// How many times `key`'s closure has run, this run counted.
    @discardableResult
    private func ran(_ key: String) -> Int { runs.withLock { $0[key, default: 0] += 1; return $0[key]! } }

    var definitions: Definitions {
        createSingleton("shared") { [self] in
            ran("shared")
            return Counted("shared")
        }
        createSingleton("flaky") { [self] () throws -> Counted in
            if ran("flaky") == 1 { throw CountingFailure() }
            return Counted("flaky")
        }
        createSingleton("visitor") { [self] in
            ran("visitor")
            return Visitor()
        }
        createSingleton("greeter") { [self] in
            ran("greeter")
            return EnglishGreeter()
        }
        createPrototype("part") { [self] in
            ran("part")
            return CountedPart()
        }
        createPrototype("handler") { [self] in
            ran("handler")
            return AwaitedHandler()
        }
    }
}

private struct CountingFailure: Error {}

/// A synchronous singleton with a property naming an async singleton: made without waiting for
/// a property of `NeedyHandler`, its own injection must await.
private final class Needy {
    @Inject var slow: SlowPart
}

private final class SlowPart {}

private final class NeedyHandler {
    @Inject var needy: Needy
    @Inject var visitor: Visitor
}

private struct AwaitingFactory: ObjectFactory {
    let runs = Guarded<[String: Int]>([:])
    let slowFails: Bool

    @discardableResult
    private func ran(_ key: String) -> Int { runs.withLock { $0[key, default: 0] += 1; return $0[key]! } }

    var definitions: Definitions {
        createSingleton("slow") { [self] () async throws -> SlowPart in
            ran("slow")
            await Task.yield()
            if slowFails { throw CountingFailure() }
            return SlowPart()
        }
        createSingleton("needy") { [self] in
            ran("needy")
            return Needy()
        }
        createSingleton("visitor") { Visitor() }
        createPrototype("handler") { NeedyHandler() }
    }
}

@Suite struct AsyncCreationTests {
    @Test func tasksAndThreadsAskingForOneSynchronousSingletonMakeItOnceEveryRound() async throws {
        for round in 0..<100 {
            let factory = CountingFactory()
            let context = try await ApplicationContext(factory)
            let fromThreads = Guarded<[ObjectIdentifier]>([])
            let threads = ConcurrencyThreads.start(2) { _ in
                if let made = try? Sync.object(context, "shared", as: Counted.self) {
                    fromThreads.withLock { $0.append(ObjectIdentifier(made)) }
                }
            }
            let fromTasks = await AsyncHangGuard.run("round \(round)") { () async -> [ObjectIdentifier] in
                await withTaskGroup(of: ObjectIdentifier?.self) { group in
                    for _ in 0..<4 {
                        group.addTask { (try? await context.object("shared", as: Counted.self)).map(ObjectIdentifier.init) }
                    }
                    var made: [ObjectIdentifier] = []
                    for await one in group { if let one { made.append(one) } }
                    return made
                }
            }
            #expect(threads.wait())
            let all = try #require(fromTasks) + fromThreads.value
            #expect(all.count == 6)
            #expect(Set(all).count == 1, "round \(round): more than one object")
            #expect(factory.runs.value["shared"] == 1, "round \(round): \(factory.runs.value)")
        }
    }

    @Test func aSingletonWhoseClosureThrewIsMadeByTheNextAwaitedLookup() async throws {
        // Docs/Lifecycle.md: a definition whose closure throws is not made; the next lookup
        // runs it again. The failed lookup must give its claim back, or the next one waits.
        let factory = CountingFactory()
        let context = try await ApplicationContext(factory)
        await #expect(throws: ContextError.self) { try await context.object("flaky", as: Counted.self) }
        let retried = await AsyncHangGuard.run("the lookup after a failure") { () async -> String? in
            try? await context.object("flaky", as: Counted.self).key
        }
        #expect(retried == "flaky")
        #expect(factory.runs.value["flaky"] == 2)
    }

    @Test func anAwaitedInjectionGivesEachPropertyTheSingletonLaterLookupsGet() async throws {
        // Docs/Injection.md: a property declared as a protocol gets the singleton itself.
        let factory = CountingFactory()
        let context = try await ApplicationContext(factory)
        let handler = try await context.object("handler", as: AwaitedHandler.self)
        let visitor = try await context.object("visitor", as: Visitor.self)
        let greeter = try await context.object("greeter", as: EnglishGreeter.self)
        #expect(handler.visitor === visitor)
        #expect(handler.greeting === greeter)
        #expect(handler.part.visitor === visitor)
        #expect(factory.runs.value["visitor"] == 1)
        #expect(factory.runs.value["greeter"] == 1)
    }

    @Test func anAwaitedPrototypeRunsEachSynchronousClosureOncePerObject() async throws {
        // Docs/Concepts.md: a prototype's closure runs once for each object it makes, however
        // the lookup waits.
        let factory = CountingFactory()
        let context = try await ApplicationContext(factory)
        var handlers: [AwaitedHandler] = []
        for _ in 0..<5 { handlers.append(try await context.object("handler", as: AwaitedHandler.self)) }
        #expect(Set(handlers.map(ObjectIdentifier.init)).count == 5)
        #expect(Set(handlers.map { ObjectIdentifier($0.part) }).count == 5)
        #expect(factory.runs.value["handler"] == 5)
        #expect(factory.runs.value["part"] == 5)
        #expect(factory.runs.value["visitor"] == 1)
    }

    @Test func aSingletonMadeForAPropertyIsFinishedByTheAwaitedLookupWhenItsOwnPropertyMustBeAwaited() async throws {
        // Docs/Async.md: an async definition a property names is awaited, however deep.
        let factory = AwaitingFactory(slowFails: false)
        let context = try await ApplicationContext(factory)
        // The handler's parts, as identities (the handler is not Sendable).
        let parts = await AsyncHangGuard.run("the handler") { () async -> [ObjectIdentifier]? in
            guard let handler = try? await context.object("handler", as: NeedyHandler.self) else { return nil }
            return [ObjectIdentifier(handler.needy), ObjectIdentifier(handler.needy.slow), ObjectIdentifier(handler.visitor)]
        }
        let made = try #require(parts ?? nil)
        #expect(made[0] == ObjectIdentifier(try Sync.object(context, "needy", as: Needy.self)))
        #expect(made[1] == ObjectIdentifier(try await context.object("slow", as: SlowPart.self)))
        #expect(made[2] == ObjectIdentifier(try await context.object("visitor", as: Visitor.self)))
        #expect(factory.runs.value == ["needy": 1, "slow": 1])
    }

    @Test func aSingletonMadeForAPropertyWhoseOwnPropertyFailsIsNotKept() async throws {
        // Docs/Lifecycle.md: an object whose injection failed is dropped, and made again by the
        // next lookup.
        let factory = AwaitingFactory(slowFails: true)
        let context = try await ApplicationContext(factory)
        for _ in 0..<2 {
            let outcome = await AsyncHangGuard.run("the failing handler") { () async -> String in
                do {
                    _ = try await context.object("handler", as: NeedyHandler.self)
                    return "made"
                } catch {
                    return "\(error)"
                }
            }
            let message = try #require(outcome)
            #expect(message.contains("slow"), "\(message)")
            #expect(message.contains("needy"), "\(message)")
        }
        #expect(factory.runs.value == ["needy": 2, "slow": 2])
    }

    @Test func anAwaitedLookupFromAChildAnswersAParentsMadeSingletonUntilTheParentCloses() async throws {
        // Docs/Concepts.md: a child falls back to its parent; Docs/Lifecycle.md: a closed
        // context on the way is an error, not a stale object.
        let app = try await ApplicationContext(CountingFactory())
        let shared = try await app.object("shared", as: Counted.self)
        let child = try await ApplicationContext(AwaitingFactory(slowFails: false), parent: app)
        #expect(try await child.object("shared", as: Counted.self) === shared)
        #expect(try await child.object("shared", as: AnyObject.self) === shared)
        try await app.close()
        await #expect(throws: ContextError.contextClosed(context: "CountingFactory", key: "shared")) {
            try await child.object("shared", as: Counted.self)
        }
    }

    @Test func tasksAndThreadsMakingHandlersWhosePropertiesNameOneSingletonMakeItOnceEveryRound() async throws {
        // The awaited injections make `visitor` and `greeter` on the spot when nobody owns them,
        // while blocking lookups on threads race them for the same claims.
        for round in 0..<100 {
            let factory = CountingFactory()
            let context = try await ApplicationContext(factory)
            let fromThreads = Guarded<[[ObjectIdentifier]]>([])
            let threads = ConcurrencyThreads.start(2) { _ in
                if let handler = try? Sync.object(context, "handler", as: AwaitedHandler.self) {
                    fromThreads.withLock { $0.append([ObjectIdentifier(handler.visitor), ObjectIdentifier(handler.greeting), ObjectIdentifier(handler.part.visitor)]) }
                }
            }
            let fromTasks = await AsyncHangGuard.run("round \(round)") { () async -> [[ObjectIdentifier]] in
                await withTaskGroup(of: [ObjectIdentifier]?.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            guard let handler = try? await context.object("handler", as: AwaitedHandler.self) else { return nil }
                            return [ObjectIdentifier(handler.visitor), ObjectIdentifier(handler.greeting), ObjectIdentifier(handler.part.visitor)]
                        }
                    }
                    var made: [[ObjectIdentifier]] = []
                    for await one in group { if let one { made.append(one) } }
                    return made
                }
            }
            #expect(threads.wait())
            let all = try #require(fromTasks) + fromThreads.value
            #expect(all.count == 6)
            #expect(Set(all.map { $0[0] }).count == 1 && Set(all.map { $0[2] }) == Set(all.map { $0[0] }), "round \(round): more than one visitor")
            #expect(Set(all.map { $0[1] }).count == 1, "round \(round): more than one greeter")
            #expect(factory.runs.value["visitor"] == 1 && factory.runs.value["greeter"] == 1, "round \(round): \(factory.runs.value)")
        }
    }
}
