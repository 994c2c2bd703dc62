import Testing
import TrellisTestSupport
@testable import Trellis

// A made singleton asked for as another type than its declared one (a protocol it adopts, a
// superclass, `AnyObject`) is converted once and kept with it (Docs/DESIGN.md, "A singleton
// asked for as a protocol"): the same object every time, from every path, and gone with its
// context.

private protocol Mailing: AnyObject { func send() }
private protocol Auditing: AnyObject {}
private protocol Pricing { var rate: Int { get } }
private class Transport {}
private final class SMTPMailer: Transport, Mailing, Auditing, @unchecked Sendable { func send() {} }
private struct FlatPricing: Pricing { let rate: Int }
private final class DraftMailer: Mailing { func send() {} }

private final class ConversionClient {
    @Inject("draft") var draft: any Mailing
    @Inject var mailer: any Mailing
    @Inject("mailer") var audit: any Auditing
    @Inject("mailer") var transport: Transport
    @Inject var pricing: any Pricing
}

private struct ConversionFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { SMTPMailer() }
        createSingleton("pricing") { FlatPricing(rate: 7) }
        createPrototype("client") { ConversionClient() }
        createPrototype("draft") { DraftMailer() }
        createPrototype("wrongDraft") { FlatPricing(rate: 1) }
        createPrototype("wrongClient") { WrongConversionClient() }
        createPrototype("sender") { r -> ConversionSender in ConversionSender(mailer: try r.object("mailer")) }
        createPrototype("queued") { QueuedMailer() }
        createPrototype("flatDraft") { FlatPricing(rate: 3) }
    }
}

private protocol Greeting: AnyObject { func greet() -> String }
private protocol Counting: AnyObject { func count() -> Int }
private final class GreeterCounter: Greeting, Counting {
    func greet() -> String { "hello" }
    func count() -> Int { 42 }
}

/// The same singleton through two protocols, each with a requirement of its own.
private final class TwoViews {
    @Inject("both") var greeting: any Greeting
    @Inject("both") var counting: any Counting
}

private struct TwoViewsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("both") { GreeterCounter() }
        createPrototype("views") { TwoViews() }
    }
}

private struct BrokenDraftFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("brokenDraft") { () throws -> DraftMailer in throw DraftFailure() }
    }
}

/// A prototype with a property of its own, asked for as a protocol.
private final class QueuedMailer: Mailing {
    @Inject var mailer: any Mailing
    func send() {}
}

private struct DraftFailure: Error {}

private final class WrongConversionClient {
    @Inject("wrongDraft") var draft: any Mailing
}

private final class ConversionSender {
    let mailer: any Mailing
    init(mailer: any Mailing) { self.mailer = mailer }
}

/// The declared singleton and its lookups as other types, blocking (in an async function Swift
/// would pick the awaited forms).
private func blockingConversions(_ context: ApplicationContext) throws -> (declared: SMTPMailer, asProtocol: [AnyObject], asOthers: [AnyObject]) {
    let declared = try context.object("mailer", as: SMTPMailer.self)
    let asProtocol: [AnyObject] = try (0..<3).map { _ in try context.object("mailer", as: (any Mailing).self) }
    let asOthers: [AnyObject] = [try context.object("mailer", as: (any Auditing).self), try context.object("mailer", as: Transport.self), try context.object("mailer", as: AnyObject.self)]
    return (declared, asProtocol, asOthers)
}

/// Whether both are the same object (a function: `#expect` on `===` of two `AnyObject`s crashes
/// this compiler).
private func same(_ first: AnyObject?, _ second: AnyObject?) -> Bool { first === second }

@Suite struct ConversionTests {
    @Test func aSingletonAskedForAsAnotherTypeIsTheDeclaredObjectEveryTime() throws {
        let context = try ApplicationContext(ConversionFactory())
        let found = try blockingConversions(context)
        let declared: AnyObject = found.declared
        for object in found.asProtocol + found.asOthers { #expect(same(object, declared)) }
        #expect((try context.object("pricing", as: (any Pricing).self)).rate == 7)
        #expect((try context.object("pricing", as: (any Pricing).self)).rate == 7)
    }

    @Test func anAwaitedLookupAsAnotherTypeIsTheDeclaredObject() async throws {
        let context = try await ApplicationContext(ConversionFactory())
        let declared = try await context.object("mailer", as: SMTPMailer.self)
        for _ in 0..<3 { #expect(same(try await context.object("mailer", as: (any Mailing).self), declared)) }
        #expect(same(try await context.object("mailer", as: Transport.self), declared))
        #expect((try await context.object("pricing", as: (any Pricing).self)).rate == 7)
    }

    @Test func injectedPropertiesAndClosureLookupsOfAnotherTypeAreTheDeclaredObject() throws {
        let context = try ApplicationContext(ConversionFactory())
        let declared = try context.object("mailer", as: SMTPMailer.self)
        for _ in 0..<3 {
            let client = try context.object("client", as: ConversionClient.self)
            #expect(same(client.mailer, declared))
            #expect(same(client.audit, declared))
            #expect(same(client.transport, declared))
            #expect(client.pricing.rate == 7)
            #expect(same(try context.object("sender", as: ConversionSender.self).mailer, declared))
        }
    }

    /// Each kept conversion is found for its own type: a value kept as one protocol and handed
    /// out as the other would call through the wrong conformance.
    @Test func aSingletonKeptAsTwoProtocolsAnswersThroughEachOnesOwnConformance() throws {
        let context = try ApplicationContext(TwoViewsFactory())
        for _ in 0..<3 {
            #expect(try context.object("both", as: (any Greeting).self).greet() == "hello")
            #expect(try context.object("both", as: (any Counting).self).count() == 42)
            let views = try context.object("views", as: TwoViews.self)
            #expect(views.greeting.greet() == "hello")
            #expect(views.counting.count() == 42)
            #expect(same(views.greeting, views.counting))
        }
    }

    /// The same through async injection: by the route (an awaited lookup of the prototype) and
    /// by name (`inject(into:)`, which has no route).
    @Test func aSingletonKeptAsTwoProtocolsAnswersThroughEachOnesOwnConformanceWhenAwaited() async throws {
        let context = try await ApplicationContext(TwoViewsFactory())
        for _ in 0..<3 {
            let views = try await context.object("views", as: TwoViews.self)
            #expect(views.greeting.greet() == "hello")
            #expect(views.counting.count() == 42)
            let injected = TwoViews()
            try await context.inject(into: injected)
            #expect(injected.greeting.greet() == "hello")
            #expect(injected.counting.count() == 42)
            #expect(same(injected.greeting, views.counting))
        }
    }

    @Test func aPrototypeInjectedAsAProtocolIsANewObjectEachTime() throws {
        let context = try ApplicationContext(ConversionFactory())
        let first = try context.object("client", as: ConversionClient.self)
        let second = try context.object("client", as: ConversionClient.self)
        #expect(first.draft is DraftMailer)
        #expect(!same(first.draft, second.draft))
    }

    @Test func aClassPrototypeAskedForAsAProtocolIsMadeAndInjectedByEveryPath() throws {
        let context = try ApplicationContext(ConversionFactory())
        let declared = try context.object("mailer", as: SMTPMailer.self)
        let asked = try context.object("queued", as: (any Mailing).self)
        let again = try context.object("queued", as: (any Mailing).self)
        let object: AnyObject = try context.object("queued", as: AnyObject.self)
        let queued = try #require(asked as? QueuedMailer)
        #expect(same(queued.mailer, declared))
        #expect(!same(asked, again))
        #expect(object is QueuedMailer)
    }

    @Test func aStructPrototypeAskedForAsAProtocolIsMade() throws {
        let context = try ApplicationContext(ConversionFactory())
        #expect(try context.object("flatDraft", as: (any Pricing).self).rate == 3)
        #expect((try context.object("flatDraft", as: Any.self) as? FlatPricing)?.rate == 3)
    }

    @Test func aClassPrototypeThatThrowsWhenAskedForAsAProtocolFailsNamingItsKey() throws {
        let context = try ApplicationContext(BrokenDraftFactory())
        for _ in 0..<2 {
            do {
                _ = try context.object("brokenDraft", as: (any Mailing).self)
                Issue.record("no error")
            } catch {
                guard case let .creationFailed(key, path, underlying) = error else {
                    Issue.record("expected creationFailed, got \(error)")
                    return
                }
                #expect(key == "brokenDraft")
                #expect(path == ["brokenDraft"])
                #expect(underlying is DraftFailure)
            }
        }
    }

    @Test func aPrototypeInjectedAsAProtocolItDoesNotAdoptIsATypeMismatchNamingItsKey() throws {
        let context = try ApplicationContext(ConversionFactory())
        do {
            _ = try context.object("wrongClient", as: WrongConversionClient.self)
            Issue.record("no error")
        } catch {
            guard case let .typeMismatch(key, expected, _, path) = error else {
                Issue.record("expected typeMismatch, got \(error)")
                return
            }
            #expect(key == "wrongDraft")
            #expect(expected.contains("Mailing"))
            #expect(path == ["wrongClient", "wrongDraft"])
        }
    }

    @Test func aLookupByTypeAsAProtocolFindsTheDeclaredObjectEveryTime() throws {
        let context = try ApplicationContext(ConversionFactory())
        let declared = try context.object("mailer", as: SMTPMailer.self)
        _ = try context.object("pricing", as: FlatPricing.self)
        for _ in 0..<3 {
            let found = try context.objects(of: (any Auditing).self)
            #expect(found.count == 1)
            #expect(same(found.first, declared))
            #expect(same(try context.object(of: Transport.self), declared))
        }
    }

    @Test func aChildAsksForItsParentsSingletonAsAProtocol() throws {
        let parent = try ApplicationContext(ConversionFactory())
        let declared = try parent.object("mailer", as: SMTPMailer.self)
        for _ in 0..<3 {
            let child = try ApplicationContext(EmptyConversionFactory(), parent: parent)
            #expect(same(try child.object("mailer", as: (any Mailing).self), declared))
            #expect(same(try child.object("client", as: ConversionClient.self).mailer, declared))
        }
    }

    @Test func aChildsLookupsOfItsParentsUnmadeObjectsAsAProtocolMakeThemThere() throws {
        let parent = try ApplicationContext(ConversionFactory())
        let child = try ApplicationContext(ChildConversionFactory(), parent: parent)
        let forwarder = try child.object("forwarder", as: ConversionForwarder.self)
        #expect(forwarder.queued is QueuedMailer)
        #expect(same(forwarder.mailer, try parent.object("mailer", as: SMTPMailer.self)))
        #expect(!same(forwarder.queued, try child.object("forwarder", as: ConversionForwarder.self).queued))
    }

    @Test func aMissingNameAskedForAsAProtocolIsNoSuchObjectWithItsPath() throws {
        let parent = try ApplicationContext(ConversionFactory())
        let child = try ApplicationContext(ChildConversionFactory(), parent: parent)
        do {
            _ = try child.object("lost", as: ConversionForwarder.self)
            Issue.record("no error")
        } catch {
            guard case let .noSuchObject(key, _, path) = error else {
                Issue.record("expected noSuchObject, got \(error)")
                return
            }
            #expect(key == "nowhere")
            #expect(path == ["lost", "nowhere"])
        }
    }

    @Test func aSingletonKeptAsAnotherTypeIsReleasedWithItsContext() throws {
        weak var mailer: SMTPMailer?
        weak var context: ApplicationContext?
        do {
            let made = try ApplicationContext(ConversionFactory())
            _ = try blockingConversions(made)
            _ = try made.object("client", as: ConversionClient.self)
            mailer = try made.object("mailer", as: SMTPMailer.self)
            context = made
            try made.close()
        }
        #expect(context == nil)
        #expect(mailer == nil)
    }

    @Test func threadsConvertingTheSameSingletonAtOnceGetTheSameObject() throws {
        let context = try ApplicationContext(ConversionFactory())
        let declared = try context.object("mailer", as: SMTPMailer.self)
        let mismatches = ConcurrencyCounter()
        let finished = ConcurrencyThreads.run(8) { thread in
            let asked: AnyObject? = thread % 2 == 0 ? try? context.object("mailer", as: (any Mailing).self) : try? context.object("mailer", as: (any Auditing).self)
            if asked !== declared { mismatches.increment() }
        }
        #expect(finished)
        #expect(mismatches.value == 0)
        #expect(same(try context.object("mailer", as: (any Mailing).self), declared))
    }

    @Test func aSingletonThatIsNotOfTheAskedTypeIsStillAMismatch() throws {
        let context = try ApplicationContext(ConversionFactory())
        _ = try context.object("pricing", as: FlatPricing.self)
        #expect(throws: ContextError.self) { try context.object("pricing", as: (any Mailing).self) }
        #expect(throws: ContextError.self) { try context.object("pricing", as: (any Mailing).self) }
        #expect((try context.object("pricing", as: (any Pricing).self)).rate == 7)
    }
}

/// A child whose closures ask for its parent's objects, not made yet, as protocols.
private struct ChildConversionFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("forwarder") { r in ConversionForwarder(queued: try r.object("queued"), mailer: try r.object("mailer")) }
        createPrototype("lost") { r in ConversionForwarder(queued: try r.object("nowhere"), mailer: try r.object("mailer")) }
    }
}

private final class ConversionForwarder {
    let queued: any Mailing
    let mailer: any Mailing
    init(queued: any Mailing, mailer: any Mailing) { self.queued = queued; self.mailer = mailer }
}

private struct EmptyConversionFactory: ObjectFactory {
    var definitions: Definitions {}
}
