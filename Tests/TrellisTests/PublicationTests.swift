import Testing
import Trellis
import TrellisTestSupport

// Docs/DESIGN.md ("Creation: exactly once", publication groups): a singleton made while another
// is being injected waits for that injection only if it may hold an unfinished object.

private final class Plain: Sendable {}

private final class Holder {
    let handler: PublicationHandler
    init(handler: PublicationHandler) { self.handler = handler }
}

private struct InjectionFailure: Error {}

private final class PublicationHandler {
    @Inject var plain: Plain
    @Inject var holder: Holder
    @Inject var failing: Plain
}

/// `handler`'s injection makes `plain` (nothing to inject, no early reference), then `holder`
/// (whose closure takes the handler being injected: an early reference), then `failing`, which
/// throws on its first run only.
private struct PublicationFactory: ObjectFactory {
    let plainRuns = ConcurrencyCounter()
    let holderRuns = ConcurrencyCounter()
    let failingRuns = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("plain") { [plainRuns] in
            plainRuns.increment()
            return Plain()
        }
        createSingleton("holder") { [holderRuns] r in
            holderRuns.increment()
            return Holder(handler: try r.object("handler"))
        }
        createSingleton("failing") { [failingRuns] () throws -> Plain in
            failingRuns.increment()
            if failingRuns.value == 1 { throw InjectionFailure() }
            return Plain()
        }
        createSingleton("handler") { PublicationHandler() }
    }
}

@Test func aSingletonMadeDuringAFailedInjectionIsKeptUnlessItTookAnEarlyReference() throws {
    let factory = PublicationFactory()
    let context = try ApplicationContext(factory)
    #expect(throws: ContextError.self) { try context.object("handler", as: PublicationHandler.self) }
    #expect(factory.plainRuns.value == 1 && factory.holderRuns.value == 1)

    let handler = try context.object("handler", as: PublicationHandler.self)
    // `plain` could not hold the failed handler: it was published when made, and is kept.
    #expect(factory.plainRuns.value == 1)
    #expect(try context.object("plain", as: Plain.self) === handler.plain)
    // `holder` held the failed handler: it was dropped with it and made again.
    #expect(factory.holderRuns.value == 2)
    #expect(handler.holder.handler === handler)
}

/// `handler` needs `made` (nothing to inject) and then `slow`, whose closure waits for the test.
private struct HeldInjectionFactory: ObjectFactory {
    let entered = ConcurrencyLatch(count: 1)
    let release = ConcurrencyLatch(count: 1)

    var definitions: Definitions {
        createSingleton("made") { Plain() }
        createSingleton("slow") { [entered, release] () -> Holder? in
            entered.countDown()
            release.wait()
            return nil
        }
        createSingleton("handler") { HeldHandler() }
    }
}

private final class HeldHandler {
    @Inject var made: Plain
    @Inject var slow: Holder?
}

@Test func aSingletonWithNothingToInjectIsServedToOtherThreadsWhileTheInjectionThatMadeItGoesOn() throws {
    let factory = HeldInjectionFactory()
    let context = try ApplicationContext(factory)
    let handlerDone = ConcurrencyThreads.start(1) { _ in _ = try? context.object("handler", as: HeldHandler.self) }
    defer { factory.release.countDown() }     // never leave the thread hanging, whatever fails
    try #require(factory.entered.wait(), "the injection never reached `slow`")
    // `made` is published although `handler` is still being injected: another thread gets it
    // without waiting for that injection to end.
    let seen = Guarded<Plain?>(nil)
    let served = ConcurrencyThreads.run(1) { _ in
        let made = try? context.object("made", as: Plain.self)
        seen.withLock { $0 = made }
    }
    #expect(served, "a lookup of `made` waited for the injection of `handler`")
    #expect(!factory.release.isOpen)
    factory.release.countDown()
    try #require(handlerDone.wait())
    #expect(try context.object("handler", as: HeldHandler.self).made === seen.value)
}

/// A service with a property of its own: made, injected and finished while `EarlyHandler` is
/// still being injected.
private final class InjectedService {
    @Inject var plain: Plain
}

/// `holder` takes the handler early, then `service` (something to inject, no early reference of
/// its own) is made, then `failing` throws on its first run only.
private final class EarlyHandler {
    @Inject var holder: EarlyHolder
    @Inject var service: InjectedService
    @Inject var failing: Plain
}

private final class EarlyHolder {
    let handler: EarlyHandler
    init(handler: EarlyHandler) { self.handler = handler }
}

/// `asyncService`: `service` an async definition, which is claimed and finished under the lock,
/// where the group's rule applies (a lock-free owner's publication checks the whole process's
/// early references instead).
private struct EarlyReferenceFactory: ObjectFactory {
    let asyncService: Bool
    let holderRuns = ConcurrencyCounter()
    let serviceRuns = ConcurrencyCounter()
    let failingRuns = ConcurrencyCounter()

    var definitions: Definitions {
        createSingleton("plain") { Plain() }
        createSingleton("holder") { [holderRuns] r in
            holderRuns.increment()
            return EarlyHolder(handler: try r.object("handler"))
        }
        if asyncService {
            createSingleton("service") { [serviceRuns] () async -> InjectedService in
                serviceRuns.increment()
                await Task.yield()
                return InjectedService()
            }
        } else {
            createSingleton("service") { [serviceRuns] in
                serviceRuns.increment()
                return InjectedService()
            }
        }
        createSingleton("failing") { [failingRuns] () throws -> Plain in
            failingRuns.increment()
            if failingRuns.value == 1 { throw InjectionFailure() }
            return Plain()
        }
        createSingleton("handler") { EarlyHandler() }
    }
}

@Test func aSingletonWithPropertiesMadeDuringAFailedInjectionIsKeptUnlessItTookAnEarlyReference() throws {
    // The same rule for a singleton that has properties of its own: `service` began after the
    // only early reference (`holder`'s) and holds nothing unfinished, so it is published when
    // it is done, although `handler`'s injection is still going on, and kept when that fails.
    let factory = EarlyReferenceFactory(asyncService: false)
    let context = try ApplicationContext(factory)
    #expect(throws: ContextError.self) { try context.object("handler", as: EarlyHandler.self) }
    #expect(factory.holderRuns.value == 1 && factory.serviceRuns.value == 1)

    let handler = try context.object("handler", as: EarlyHandler.self)
    #expect(factory.serviceRuns.value == 1)
    #expect(try context.object("service", as: InjectedService.self) === handler.service)
    // `holder` held the failed handler: it was dropped with it and made again.
    #expect(factory.holderRuns.value == 2)
    #expect(handler.holder.handler === handler)
}

@Test func aSingletonFinishedUnderTheLockDuringAFailedInjectionIsKeptUnlessItTookAnEarlyReference() async throws {
    let factory = EarlyReferenceFactory(asyncService: true)
    let context = try await ApplicationContext(factory)
    await #expect(throws: ContextError.self) { try await context.object("handler", as: EarlyHandler.self) }
    #expect(factory.holderRuns.value == 1 && factory.serviceRuns.value == 1)
    let handler = try await context.object("handler", as: EarlyHandler.self)
    #expect(factory.serviceRuns.value == 1)
    #expect(try await context.object("service", as: InjectedService.self) === handler.service)
    #expect(factory.holderRuns.value == 2)
}
