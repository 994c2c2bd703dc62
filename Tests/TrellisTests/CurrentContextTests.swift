import Foundation
import Testing
import Trellis

// Docs/Injection.md, "Plain init and the current context": `@Inject` properties of objects made with their plain `init` while a context is
// current resolve from it on first read: every form of `@Inject`, use inside `init`, presets left
// alone, objects made by a context still injected by it, and `inject(into:)` winning.
// (Struct owners: CurrentContextStructTests.swift; errors: CurrentContextErrorTests.swift.)

private final class CCAnalytics: Sendable {}

// MARK: - Plain-init objects read from the context current when they were made

private final class CCEverything {
    @Inject var mailer: CCMailer
    @Inject("monthlyReport") var monthly: CCReport
    @Inject var analytics: CCAnalytics?                // no "analytics": nil
    @Inject var currency: String = "EUR"               // "currency" is defined: the context's
    @Inject var locale: String = "en"                  // no "locale": the default
    @Inject(.lazy) var report: CCReport                // a prototype, looked up on first read
    @Inject("monthlyReport", .lazy) var lazyMonthly: CCReport
    @Inject var MAILER: CCMailer                       // the default alias of "mailer"
}

private class CCBase {
    @Inject var mailer: CCMailer
}

private final class CCDerived: CCBase {
    @Inject var monthlyReport: CCReport
}

@Suite struct CurrentContextPlainInitTests {
    @Test func everyFormOfInjectResolvesFromTheCurrentContext() throws {
        let a = try startTagged("A")
        let object = Sync.withCurrent(a) { CCEverything() }
        #expect(object.mailer === (try a.object("mailer", as: CCMailer.self)))
        #expect(object.monthly.tag == "monthly-A")
        #expect(object.analytics == nil)
        #expect(object.currency == "currency-A")
        #expect(object.locale == "en")
        #expect(object.report.tag == "A")
        #expect(object.lazyMonthly === object.monthly)
        #expect(object.MAILER === object.mailer)
    }

    @Test func thePropertyResolvesFromTheContextCurrentWhenTheObjectWasMadeNotWhenRead() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = Sync.withCurrent(a) { CCScreen() }
        // Read outside any binding, and inside another one: still `a`'s.
        #expect(Sync.withCurrent(b) { screen.mailer.tag } == "A")
        #expect(screen.mailer.tag == "A")
    }

    @Test func aReadInAnotherTaskUsesTheNotedContext() async throws {
        let a = try startTagged("A")
        let screen = UncheckedBox(Sync.withCurrent(a) { CCScreen() })
        let tag = await Task.detached { screen.value.mailer.tag }.value
        #expect(tag == "A")
    }

    @Test func theObjectIsKeptAfterTheFirstRead() throws {
        let a = try startTagged("A")
        let object = Sync.withCurrent(a) { CCEverything() }
        let first = object.report                     // a prototype: a new one per lookup
        #expect(object.report === first)
        #expect(try object.$report.get() === first)
        #expect(try a.object("report", as: CCReport.self) !== first)
    }

    @Test func superclassPropertiesResolveToo() throws {
        let a = try startTagged("A")
        let derived = Sync.withCurrent(a) { CCDerived() }
        #expect(derived.mailer.tag == "A")
        #expect(derived.monthlyReport.tag == "monthly-A")
    }

    @Test func theNotedContextIsAChildsAndFindsItsParentsObjects() throws {
        let parent = try startTagged("P")
        let child = try ApplicationContext(ChildFactory(), parent: parent)
        let object = Sync.withCurrent(child) { CCEverything() }
        #expect(object.mailer.tag == "P")
        #expect(object.currency == "child-currency")      // the child shadows the parent
    }

    @Test func anObjectMadeOutsideAnyBindingIsNotResolvedFromALaterOne() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = Sync.withCurrent(a) { CCScreen() }
        let outsideScreen = CCScreen()   // outside any binding (a default, if one is set, is not a's)
        Sync.withCurrent(a) {
            #expect((try? outsideScreen.$mailer.get())?.tag != "A")
        }
        _ = b
        #expect(screen.mailer.tag == "A")
    }
}

private struct ChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("currency") { "child-currency" }
    }
}

// MARK: - Use inside `init`

private final class GreetingScreen {
    @Inject var mailer: CCMailer
    @Inject var currency: String = "EUR"
    private(set) var greeting = ""

    init() {
        greeting = "sent by \(mailer.tag) in \(currency)"
    }
}

private final class SubclassUsingSuperclassPropertyInInit: CCBase {
    let madeWith: String

    override init() {
        madeWith = "placeholder"
        super.init()
        usedInInit = mailer.tag
    }

    var usedInInit = ""
}

@Suite struct CurrentContextInitTests {
    @Test func injectedPropertiesCanBeUsedInsideTheOwnersInit() throws {
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { GreetingScreen() }
        #expect(screen.greeting == "sent by A in currency-A")
    }

    @Test func aSuperclassPropertyCanBeUsedInASubclassInit() throws {
        let a = try startTagged("A")
        let object = Sync.withCurrent(a) { SubclassUsingSuperclassPropertyInInit() }
        #expect(object.usedInInit == "A")
    }

    @Test func theObjectReadInInitIsTheOneKept() throws {
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { InitReadsPrototype() }
        #expect(screen.report === screen.readInInit)
    }
}

private final class InitReadsPrototype {
    @Inject var report: CCReport
    var readInInit: CCReport?
    init() { readInInit = report }
}

// MARK: - Presets are left alone

private final class PresetInInit {
    @Inject var mailer: CCMailer
    @Inject var currency: String = "EUR"

    init(mailer: CCMailer, currency: String) {
        self.mailer = mailer
        self.currency = currency
    }
}

@Suite struct CurrentContextPresetTests {
    @Test func aPropertyAssignedBeforeTheFirstReadIsNotOverwritten() throws {
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { CCEverything() }
        let double = CCMailer("double")
        screen.mailer = double
        screen.currency = "CHF"
        #expect(screen.mailer === double)
        #expect(screen.currency == "CHF")
        #expect(try screen.$mailer.get() === double)
        #expect(screen.monthly.tag == "monthly-A")   // the others still resolve
    }

    @Test func aPropertyAssignedInInitIsNotOverwritten() throws {
        let a = try startTagged("A")
        let double = CCMailer("double")
        let object = Sync.withCurrent(a) { PresetInInit(mailer: double, currency: "CHF") }
        #expect(object.mailer === double)
        #expect(object.currency == "CHF")
    }

    @Test func aPropertyAssignedAfterItsFirstReadTakesTheNewValue() throws {
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { CCScreen() }
        #expect(screen.mailer.tag == "A")
        let double = CCMailer("double")
        screen.mailer = double
        #expect(screen.mailer === double)
    }

    @Test func aDeclaredDefaultIsReplacedWhenTheContextHasTheKeyAndKeptOtherwise() throws {
        let a = try startTagged("A")
        let object = Sync.withCurrent(a) { CCEverything() }
        #expect(object.currency == "currency-A")
        #expect(object.locale == "en")
    }
}

// MARK: - Context-made objects and `inject(into:)`

private final class CCLazyScreen {
    @Inject(.lazy) var report: CCReport
    @Inject var mailer: CCMailer
}

private struct LazyScreenFactory: ObjectFactory {
    let tag: String
    var definitions: Definitions {
        createSingleton("mailer") { [tag] in CCMailer(tag) }
        createPrototype("report") { [tag] in CCReport(tag) }
        createPrototype("lazyScreen") { CCLazyScreen() }
    }
}

@Suite struct CurrentContextMadeByAContextTests {
    @Test func anObjectMadeByAContextIsInjectedByThatContextWhileAnotherIsCurrent() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = try Sync.withCurrent(a) { try b.object("screen", as: CCScreen.self) }
        #expect(screen.mailer === (try b.object("mailer", as: CCMailer.self)))
    }

    @Test func aLazyPropertyOfAnObjectMadeByAContextReadsThatContextWhileAnotherIsCurrent() throws {
        let a = try ApplicationContext(LazyScreenFactory(tag: "A"))
        let b = try ApplicationContext(LazyScreenFactory(tag: "B"))
        let screen = try Sync.withCurrent(a) { try b.object("lazyScreen", as: CCLazyScreen.self) }
        #expect(screen.report.tag == "B")
        #expect(screen.mailer.tag == "B")
    }

    @Test func anObjectMadeByAContextWithItselfCurrentIsInjectedAsUsual() async throws {
        let a = try startTagged("A")
        let screen = try await a.withCurrent { try await a.object("screen", as: CCScreen.self) }
        #expect(screen.mailer === (try Sync.object(a, "mailer", as: CCMailer.self)))
    }

    @Test func anExplicitInjectIntoWinsOverTheNotedContext() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = Sync.withCurrent(a) { CCEverything() }
        try b.inject(into: screen)
        #expect(screen.mailer.tag == "B")
        #expect(screen.monthly.tag == "monthly-B")
        #expect(screen.currency == "currency-B")
        #expect(screen.report.tag == "B")
        #expect(screen.lazyMonthly.tag == "monthly-B")
    }

    /// Docs/Injection.md "The current context": once read, the property keeps its object.
    @Test func injectIntoAfterTheFirstReadLeavesTheKeptObjectAlone() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = Sync.withCurrent(a) { CCScreen() }
        let first = screen.mailer
        try b.inject(into: screen)
        #expect(screen.mailer === first)
        #expect(screen.mailer.tag == "A")
    }

    @Test func injectIntoLeavesAPresetAlone() throws {
        let a = try startTagged("A")
        let b = try startTagged("B")
        let screen = Sync.withCurrent(a) { CCScreen() }
        let double = CCMailer("double")
        screen.mailer = double
        try b.inject(into: screen)
        #expect(screen.mailer === double)
    }
}

// MARK: - Isolation of the async `withCurrent`

@MainActor private final class MainActorCounter {
    var value = 0
}

@Suite struct CurrentContextIsolationTests {
    @MainActor @Test func asyncWithCurrentRunsItsBodyOnTheCallersActor() async throws {
        let a = try startTagged("A")
        let counter = MainActorCounter()
        let tag = await a.withCurrent { () async -> String? in
            MainActor.assertIsolated()
            counter.value += 1                      // main-actor state, no hop needed
            await Task.yield()
            MainActor.assertIsolated()
            return plainScreenTag()
        }
        #expect(counter.value == 1)
        #expect(tag == "A")
    }
}
