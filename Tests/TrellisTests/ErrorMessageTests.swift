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
