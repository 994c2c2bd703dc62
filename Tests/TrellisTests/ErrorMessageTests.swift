import Testing
import Trellis

// MARK: - Fixtures
// Internal, not private, so type names in messages read plainly ("TrellisTests.ErrorMessageWidget").

final class ErrorMessageWidget: Sendable {}
final class ErrorMessageGadget: Sendable {}
protocol ErrorMessageTool: Sendable {}
extension ErrorMessageWidget: ErrorMessageTool {}
extension ErrorMessageGadget: ErrorMessageTool {}

final class ErrorMessageController {
    @Inject var paymentGateway: ErrorMessageWidget
}

final class ErrorMessageRenamedController {
    @Inject("paymentGateway") var payments: ErrorMessageWidget
}

private struct ErrorMessageUnderlying: Error, CustomStringConvertible {
    var description: String { "disk is full" }
}

private struct ErrorMessageFactory: ObjectFactory {
    var contextName: String { "Checkout" }
    let make: @Sendable (ErrorMessageFactory) -> Definitions
    var definitions: Definitions { make(self) }
}

private struct ErrorMessageParentFactory: ObjectFactory {
    var contextName: String { "AppRoot" }
    var definitions: Definitions {
        createSingleton("rootThing") { ErrorMessageWidget() }
    }
}

private struct ErrorMessageGraphFactory: ObjectFactory {
    var contextName: String { "Shop" }
    var definitions: Definitions {
        createSingleton("orderService") { r in try r.object("orderRepository", as: ErrorMessageWidget.self) }
        createPrototype("orderRepository") { r in try r.object("databasePool", as: ErrorMessageWidget.self) }
        createSingleton("widget") { ErrorMessageWidget() }
        createSingleton("gadget") { ErrorMessageGadget() }
        createSingleton("wantsGadget") { r in try r.object("widget", as: ErrorMessageGadget.self) }
        createSingleton("cycleA") { r in try r.object("cycleB", as: ErrorMessageWidget.self) }
        createSingleton("cycleB") { r in try r.object("cycleA", as: ErrorMessageWidget.self) }
        createSingleton("diskWriter") { () throws -> ErrorMessageWidget in throw ErrorMessageUnderlying() }
        createSingleton("report") { r in try r.object("diskWriter", as: ErrorMessageWidget.self) }
    }
}

private struct ErrorMessageToolsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("widget") { ErrorMessageWidget() }
        createPrototype("gadget") { ErrorMessageGadget() }
        createSingleton("count") { 3 }
    }
}

private struct ErrorMessageOverrides: ObjectFactory {
    var definitions: Definitions {
        createSingleton("gizmo") { ErrorMessageWidget() }
    }
}

// The objects of Docs/Lifecycle.md's error examples.

private struct DocsDrainFailure: Error, CustomStringConvertible {
    var description: String { "3 connections still in use" }
}

private final class DocsDisposable: Disposable, Sendable {
    let failure: (any Error & Sendable)?
    init(failing failure: (any Error & Sendable)? = nil) { self.failure = failure }
    func dispose() throws { if let failure { throw failure } }
}

private struct DocsClosingFactory: ObjectFactory {
    var contextName: String { "AppFactory" }
    var definitions: Definitions {
        createEagerSingleton("database") { DocsDisposable(failing: DocsDrainFailure()) }
        createEagerSingleton("orders") { DocsDisposable() }
    }
}

private struct DocsRequestFactory: ObjectFactory {
    var contextName: String { "RequestFactory" }
    var definitions: Definitions {
        createPrototype("handler") { ErrorMessageWidget() }
    }
}

/// The message of the `ContextError` that `body` throws, or a note that it threw none.
private func message(_ body: () throws -> Void) -> String {
    do {
        try body()
        return "(no error)"
    } catch let error as ContextError {
        return error.description
    } catch {
        return "(not a ContextError: \(error))"
    }
}

private func configurationMessage(@DefinitionsBuilder _ body: @escaping @Sendable (ErrorMessageFactory) -> Definitions) -> String {
    message { _ = try ConfiguratorFromFactory(ErrorMessageFactory(make: body)) }
}

// MARK: - Tests

@Suite struct ErrorMessageTests {
    @Test func invalidKeyNamesTheKeyAsWrittenAndTheContext() {
        let text = configurationMessage { f in f.createSingleton("mailer ") { 1 } }
        #expect(text.contains("'mailer '"))
        #expect(text.contains("Checkout"))
    }

    @Test func duplicateKeyNamesTheKeyAndTheContext() {
        let text = configurationMessage { f in
            f.createSingleton("mailer") { 1 }
            f.createPrototype("mailer") { 2 }
        }
        #expect(text.contains("'mailer'"))
        #expect(text.contains("Checkout"))
        #expect(text.lowercased().contains("duplicate"))
    }

    @Test func duplicateAliasNamesTheAliasBothKeysAndWhichWasGenerated() {
        let text = configurationMessage { f in
            f.createSingleton("mailer") { 1 }.aliases("MAILSERVICE")
            f.createSingleton("mailService") { 2 }
        }
        #expect(text.contains("'MAILSERVICE'"))
        #expect(text.contains("'mailer' (explicit alias)"))
        #expect(text.contains("'mailService' (generated default alias)"))
    }

    @Test func aliasShadowsKeyNamesTheAliasAndBothDefinitions() {
        let text = configurationMessage { f in
            f.createSingleton("clock") { 1 }
            f.createSingleton("mailer") { 2 }.aliases("clock")
        }
        #expect(text.contains("'clock'"))
        #expect(text.contains("'mailer'"))
        #expect(text.contains("explicit"))
        #expect(text.contains("Checkout"))
    }

    @Test func aliasOfUnknownKeyNamesTheAliasAndTheMissingKey() {
        let text = configurationMessage { f in
            f.createSingleton("mailer") { 1 }
            f.aliases(for: "mailr", "postman")
        }
        #expect(text.contains("'postman'"))
        #expect(text.contains("'mailr'"))
    }

    @Test func noSuchObjectNamesTheKeyEveryContextSearchedAndThePath() throws {
        let root = try ApplicationContext(ErrorMessageParentFactory())
        let shop = try ApplicationContext(ErrorMessageGraphFactory(), parent: root)
        let text = message { _ = try shop.object("orderService", as: ErrorMessageWidget.self) }
        #expect(text.contains("'databasePool'"))
        #expect(text.contains("Shop"))
        #expect(text.contains("AppRoot"))
        #expect(text.contains("orderService → orderRepository → databasePool"))
    }

    @Test func typeMismatchNamesTheKeyBothTypesAndThePath() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { _ = try shop.object("wantsGadget", as: ErrorMessageGadget.self) }
        #expect(text.contains("'widget'"))
        #expect(text.contains("ErrorMessageWidget"))
        #expect(text.contains("ErrorMessageGadget"))
        #expect(text.contains("wantsGadget → widget"))
    }

    @Test func circularDependencyNamesTheWholePath() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { _ = try shop.object("cycleA", as: ErrorMessageWidget.self) }
        #expect(text.contains("cycleA → cycleB → cycleA"))
    }

    @Test func creationFailedNamesTheKeyThePathAndTheUnderlyingError() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { _ = try shop.object("report", as: ErrorMessageWidget.self) }
        #expect(text.contains("'diskWriter'"))
        #expect(text.contains("report → diskWriter"))
        #expect(text.contains("disk is full"))
    }

    @Test func unresolvedInjectionNamesTheOwnerTypeThePropertyAndTheKey() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { try shop.inject(into: ErrorMessageController()) }
        #expect(text.contains("ErrorMessageController"))
        #expect(text.contains("'paymentGateway'"))
    }

    @Test func unresolvedInjectionMessageNamesAKeyThatDiffersFromTheProperty() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { try shop.inject(into: ErrorMessageRenamedController()) }
        #expect(text.contains("ErrorMessageRenamedController"))
        #expect(text.contains("'payments'"))
        #expect(text.contains("'paymentGateway'"))
    }

    @Test func overrideOfUnknownKeyNamesTheKey() {
        let text = message {
            _ = try ApplicationContext(ErrorMessageGraphFactory(), overriding: ErrorMessageOverrides())
        }
        #expect(text.contains("'gizmo'"))
    }

    @Test func ambiguousTypeNamesTheTypeAndEveryCandidate() throws {
        let tools = try ApplicationContext(ErrorMessageToolsFactory())
        let text = message { _ = try tools.object(of: (any ErrorMessageTool).self) }
        #expect(text.contains("ErrorMessageTool"))
        #expect(text.contains("'widget'"))
        #expect(text.contains("'gadget'"))
    }

    @Test func nestedFailureReadsAsOneMessage() throws {
        let shop = try ApplicationContext(ErrorMessageGraphFactory())
        let text = message { _ = try shop.object("orderService", as: ErrorMessageWidget.self) }
        let occurrences = text.ranges(of: "No object").count
        #expect(occurrences == 1)
        #expect(!text.contains("failed"))
    }
}

// MARK: - The messages the docs quote, verbatim
// README.md and Docs/*.md quote these messages; each test builds the situation the page describes
// and asserts the whole text, so a changed message fails here until the docs are updated. Where a
// page shows an app's type as `MyApp.X`, this module's type name stands in for it.

private struct DocsChainFactory: ObjectFactory {
    var contextName: String { "AppFactory" }
    var definitions: Definitions {
        createSingleton("service") { r in try r.object("repository", as: ErrorMessageWidget.self) }
        createSingleton("repository") { r in try r.object("database", as: ErrorMessageWidget.self) }
        createEagerSingleton("clock") { ErrorMessageWidget() }
        createSingleton("store") { r in try r.object("disk", as: ErrorMessageWidget.self) }
        createSingleton("disk") { () throws -> ErrorMessageWidget in throw DocsDiskFull() }
        createSingleton("a") { r in try r.object("b", as: ErrorMessageWidget.self) }
        createSingleton("b") { r in try r.object("a", as: ErrorMessageWidget.self) }
        createPrototype("page") { r in try r.object("section", as: ErrorMessageWidget.self) }
        createPrototype("section") { r in try r.object("page", as: ErrorMessageWidget.self) }
    }
}

private struct DocsDiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

private struct DocsClashFactory: ObjectFactory {
    var contextName: String { "AppFactory" }
    let keys: [String]
    var definitions: Definitions {
        for key in keys {
            createSingleton(key) { ErrorMessageWidget() }
        }
    }
}

/// The `BrokenFactory` of Snippets/TestingFactories.swift, whose report Docs/Testing.md and
/// Docs/Diagnostics.md print.
private struct BrokenFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { r in DocsMailer(clock: try r.object("clok")) }
        createPrototype("newsletter") { DocsNewsletter() }
        createSingleton("greeting") { "hello" }
        createSingleton("count") { r in try r.object("greeting", as: Int.self) }
    }
}

final class DocsMailer: Sendable {
    init(clock: ErrorMessageGadget) {}
}

final class DocsNewsletter {
    @Inject var mailer: DocsMailer
}

final class CheckoutController {
    @Inject var mailer: ErrorMessageWidget
}

private struct DocsPaymentsFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("stripe") { ErrorMessageWidget() as any ErrorMessageTool }
        createSingleton("paypal") { ErrorMessageGadget() as any ErrorMessageTool }
    }
}

@Suite struct DocumentedMessageTests {
    /// README "Diagnostics", Docs/Concepts.md "Errors".
    @Test func noSuchObjectInOneContextWithItsPath() throws {
        let app = try ApplicationContext(DocsChainFactory())
        #expect(message { _ = try app.object("service", as: ErrorMessageWidget.self) }
            == "No object named 'database' in context 'AppFactory' (path: service → repository → database). Define it, or check the key and its aliases.")
    }

    /// Docs/GettingStarted.md section 5: the contexts searched, as a `catch` sees them.
    @Test func noSuchObjectListsTheOneContextSearched() throws {
        let app = try ApplicationContext(DocsChainFactory())
        #expect(throws: ContextError.noSuchObject(key: "payments", searched: ["AppFactory"], path: ["payments"])) {
            _ = try app.object("payments", as: ErrorMessageWidget.self)
        }
    }

    /// Snippets/QuickStart.swift: a lookup through a child that reaches the root.
    @Test func noSuchObjectThroughAChildNamesBothContextsInOrder() throws {
        let app = try ApplicationContext(DocsChainFactory())
        let screen = try ApplicationContext(ErrorMessageFactory(make: { _ in Definitions() }), parent: app)
        #expect(message { _ = try screen.object("payments", as: ErrorMessageWidget.self) }
            == "No object named 'payments' in contexts 'Checkout' → 'AppFactory' (searched in that order). Define it, or check the key and its aliases.")
    }

    /// Docs/Concepts.md "Errors".
    @Test func creationFailedWithItsPathAndTheUnderlyingError() throws {
        let app = try ApplicationContext(DocsChainFactory())
        #expect(message { _ = try app.object("store", as: ErrorMessageWidget.self) }
            == "Creating 'disk' failed (path: store → disk): disk full (nothing was cached: it is made again when next asked for)")
    }

    /// Docs/Concepts.md "Errors" (singletons), Docs/Injection.md (prototypes).
    @Test func circularDependencyThroughClosures() throws {
        let app = try ApplicationContext(DocsChainFactory())
        let advice = "Break the cycle, or let singletons reference each other through @Inject properties instead of creation closures (value types cannot take part in property cycles)."
        #expect(message { _ = try app.object("a", as: ErrorMessageWidget.self) } == "Circular dependency: a → b → a. " + advice)
        #expect(message { _ = try app.object("page", as: ErrorMessageWidget.self) } == "Circular dependency: page → section → page. " + advice)
    }

    /// Docs/GettingStarted.md section 5 (there the type is `MyApp.SystemClock`).
    @Test func typeMismatchWithoutAPath() throws {
        let app = try ApplicationContext(DocsChainFactory())
        #expect(message { _ = try app.object("clock", as: String.self) }
            == "Object 'clock' is a TrellisTests.ErrorMessageWidget, not the requested Swift.String.")
    }

    /// Docs/Concepts.md "Every name is unique": keys `Foo` and `foo`, in that order.
    @Test func keysDifferingInCaseShadowThroughTheDefaultAlias() {
        #expect(message { _ = try ConfiguratorFromFactory(DocsClashFactory(keys: ["Foo", "foo"])) }
            == "Alias 'foo' of 'Foo' (generated default alias) in context 'AppFactory' is also the key of another definition, 'foo'. Every name in a context must be unique; rename one of the two definitions.")
    }

    /// Docs/Concepts.md "Every name is unique": keys `ab` and `aB`.
    @Test func keysSharingAnUppercaseFormClashAsDuplicateAliases() {
        #expect(message { _ = try ConfiguratorFromFactory(DocsClashFactory(keys: ["ab", "aB"])) }
            == "Duplicate alias 'AB' in context 'AppFactory': it is given to 'ab' (generated default alias) and 'aB' (generated default alias). Every name in a context must be unique; remove or rename one.")
    }

    /// Docs/Testing.md "Validate the factory" and Docs/Diagnostics.md "The validation report".
    @Test func validationReportOfTheBrokenFactory() {
        #expect(ApplicationContext.validate(BrokenFactory()).description == """
            2 problems:
            1. in 'mailer': No object named 'clok' in context 'BrokenFactory' (path: mailer → clok). Define it, or check the key and its aliases.
            2. in 'count': Object 'greeting' is a Swift.String, not the requested Swift.Int (path: count → greeting).
            """)
    }

    /// Docs/Injection.md "The forms of @Inject" (there the type is `MyApp.CheckoutController`).
    @Test func unresolvedInjectionOfARequiredProperty() throws {
        let app = try ApplicationContext(DocsPaymentsFactory())
        #expect(message { try app.inject(into: CheckoutController()) }
            == "Cannot inject property 'mailer' of TrellisTests.CheckoutController: no object named 'mailer'. Define 'mailer', give the property a default value, or make it optional.")
    }

    /// Docs/Injection.md "Lookup by type" (there the type is `MyApp.PaymentGateway`).
    @Test func ambiguousTypeNamesEveryCandidateInOrder() throws {
        let app = try ApplicationContext(DocsPaymentsFactory())
        #expect(message { _ = try app.object(of: (any ErrorMessageTool).self) }
            == "Several objects are of type TrellisTests.ErrorMessageTool: 'stripe', 'paypal'. Look one up by key, or use objects(of:).")
    }

    /// Docs/Injection.md "Reflection" (there the type is `MyApp.CheckoutController`).
    @Test func reflectionUnavailableNamesBothCauses() {
        #expect(ContextError.reflectionUnavailable(type: "MyApp.CheckoutController").description
            == "Cannot inject MyApp.CheckoutController: @Inject properties were created while making it, but reflection shows it no stored properties. Either the binary has no reflection metadata (build without -disable-reflection-metadata), or the closure made an object with @Inject properties itself, which nothing injects: define that object in the factory and look it up through the resolver, or inject it with `context.inject(into:)`.")
    }

    /// Docs/Lifecycle.md "A closed context" and Snippets/RequestScope.swift's output.
    @Test func contextClosedNamesTheClosedContextAndTheKey() throws {
        let request = try ApplicationContext(DocsRequestFactory())
        try request.close()
        #expect(message { _ = try request.object("handler", as: ErrorMessageWidget.self) }
            == "Context 'RequestFactory' is closed: cannot look up 'handler'. Look objects up before closing the context, or in a context that is still open.")
    }

    /// Docs/Lifecycle.md "When a dispose fails".
    @Test func disposalFailedNamesEachKeyAndItsError() throws {
        let app = try ApplicationContext(DocsClosingFactory())
        #expect(message { try app.close() }
            == "Closing context 'AppFactory': 1 dispose() call failed: 'database': 3 connections still in use. Every disposal was attempted, and the context is closed.")
    }

    /// An error whose description ends its sentence is not followed by a second period
    /// (Docs/Lifecycle.md "When a dispose fails").
    @Test func disposalFailedEndsItsListWithOnePeriod() throws {
        let error = ContextError.disposalFailed(context: "App", failures: [.init(key: "pool", error: "the pool is busy.")])
        #expect(error.description == "Closing context 'App': 1 dispose() call failed: 'pool': the pool is busy. Every disposal was attempted, and the context is closed.")
        let exclaimed = ContextError.disposalFailed(context: "App", failures: [.init(key: "pool", error: "the pool is busy!")])
        #expect(exclaimed.description == "Closing context 'App': 1 dispose() call failed: 'pool': the pool is busy! Every disposal was attempted, and the context is closed.")
    }

    /// Docs/GettingStarted.md "Common mistakes": a closure that returns nothing.
    @Test func voidDefinitionIsAnInvalidDefinitionSayingHowToReturnTheObject() {
        #expect(message { _ = try ApplicationContext(DocsVoidFactory()) }
            == "Invalid definition 'clock' in context 'AppFactory': its closure returns nothing, so it would make `()`: a closure whose last statement is a `print`, or an `if` without `else`, returns nothing. Return the object, e.g. `createSingleton(\"clock\") { print(\"making the clock\"); return SystemClock() }`.")
    }

    /// Docs/GettingStarted.md "Common mistakes": a closure whose last statement is an optional
    /// chain ending in a call that returns nothing makes `()?`, which the compiler accepts silently.
    @Test func optionalOfNothingDefinitionIsAnInvalidDefinitionSayingHowToReturnTheObject() {
        #expect(message { _ = try ApplicationContext(DocsOptionalVoidFactory()) }
            == "Invalid definition 'server' in context 'AppFactory': its closure returns an optional of nothing (`()?`), so it would make no object: a closure whose last statement is an optional chain ending in a call that returns nothing (`starter?.start()`) returns `()?`. Return the object, e.g. `createSingleton(\"server\") { starter?.start(); return Server() }`.")
        let invalid = ApplicationContext.validate(DocsOptionalVoidFactory()).problems.compactMap { problem -> String? in
            guard case let .invalidDefinition(key, _, _) = problem else { return nil }
            return key
        }
        #expect(invalid == ["server", "doubly"])
    }

    /// Docs/Testing.md, "Validate the factory": `validate` reports a `Void` definition too, as `invalidDefinition`.
    @Test func voidDefinitionIsReportedByValidate() {
        let problems = ApplicationContext.validate(DocsVoidFactory()).problems
        #expect(problems.count == 1)
        guard case let .invalidDefinition(key, _, context)? = problems.first else {
            Issue.record("expected invalidDefinition, got \(problems)")
            return
        }
        #expect(key == "clock" && context == "AppFactory")
    }

    /// Docs/GettingStarted.md "Common mistakes": overriding an alias.
    @Test func overrideOfAnAliasNamesItsKey() {
        #expect(message { _ = try ApplicationContext(DocsMailFactory(), overriding: DocsMailServiceOverride()) }
            == "Override of 'mailService': in context 'AppFactory' it is an alias of 'mailer', and overrides name keys. Override 'mailer' instead.")
    }

    /// Docs/Testing.md, overrides: two doubles of one key are not two definitions to rename.
    @Test func duplicateKeyAmongTheOverridesSaysToKeepOneDouble() {
        #expect(message { _ = try ApplicationContext(DocsMailFactory(), overriding: DocsTwoMailerDoubles()) }
            == "Duplicate key 'mailer' in context 'overrides of AppFactory': two test doubles replace the same definition. Keep one.")
    }

    /// Docs/Injection.md, "Lazy properties": the payload's key is the property's key, which an
    /// explicit key makes other than its name.
    @Test func contextReleasedNamesThePropertyByItsKey() {
        #expect(ContextError.contextReleased(context: "AppFactory", key: "greeting").description
            .hasPrefix("@Inject property with key 'greeting' was first read after its context 'AppFactory' was released."))
    }

    /// Docs/GettingStarted.md "Common mistakes" (there the type is `MyApp.Summary`).
    @Test func lookupByATypeNothingMakesSaysSo() throws {
        let app = try ApplicationContext(DocsMailFactory())
        #expect(message { _ = try app.object(of: DocsSummary.self) }
            == "No definition makes a TrellisTests.DocsSummary in context 'AppFactory'. Define one, or check that the type is the one its definition returns (a protocol, a superclass or the type itself).")
    }

    /// Docs/GettingStarted.md "Common mistakes" and Docs/Async.md: a synchronous lookup of an
    /// async definition.
    @Test func requiresAwaitNamesTheKeyAndBothFixes() throws {
        let app = try ApplicationContext(DocsMailFactory())
        #expect(message { _ = try app.object("config", as: ErrorMessageWidget.self) }
            == "'config' needs an async lookup, so a synchronous call cannot have it: it is async and not made yet (or being made, or made while the context's async eager singletons start, when synchronous closures never get async definitions), or being made by an async lookup that has suspended (awaiting something, or waiting to run on the main actor), which a synchronous call never blocks for. Look it up with `try await` (from an async closure, if a closure needs it), or make it an eager singleton and start the context with `try await ApplicationContext(…)`.")
    }
}

final class DocsSummary {}

private final class DocsStarter: Sendable {
    func start() {}
}

private struct DocsOptionalVoidFactory: ObjectFactory {
    let starter: DocsStarter? = DocsStarter()
    var contextName: String { "AppFactory" }
    var definitions: Definitions {
        createSingleton("server") { [starter] in starter?.start() }
        createPrototype("doubly") { () -> ()?? in nil }
    }
}

private struct DocsVoidFactory: ObjectFactory {
    var contextName: String { "AppFactory" }
    var definitions: Definitions {
        // What `{ print("making the clock") }` defines, without the deprecation warning the
        // compiler gives that closure (.ci/compiler-messages/void-definition.swift pins it).
        Self.define("clock") { () -> Void in }
    }

    static func define<Object>(_ key: String, _ make: @escaping @Sendable () -> Object) -> Definition {
        DocsVoidFactory().createSingleton(key, make)
    }
}

private struct DocsMailFactory: ObjectFactory {
    var contextName: String { "AppFactory" }
    var definitions: Definitions {
        createSingleton("mailer") { ErrorMessageWidget() }.aliases("mailService")
        createSingleton("config") { () async -> ErrorMessageWidget in ErrorMessageWidget() }
    }
}

private struct DocsTwoMailerDoubles: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { ErrorMessageWidget() }
        createSingleton("mailer") { ErrorMessageWidget() }
    }
}

private struct DocsMailServiceOverride: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailService") { ErrorMessageWidget() }
    }
}
