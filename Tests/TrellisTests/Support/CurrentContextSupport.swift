import Trellis

// Shared by the current-context tests (CurrentContext*Tests.swift; Docs/Injection.md, "Plain init and the current context").

final class CCMailer: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class CCReport: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// Made with its plain `init` by the tests; also defined as a prototype in `TagFactory`.
final class CCScreen {
    @Inject var mailer: CCMailer
}

/// A context per tag: every object it makes carries the tag, so a test can tell which context
/// filled a property.
struct TagFactory: ObjectFactory {
    let tag: String
    var contextName: String { "Tag\(tag)" }
    var definitions: Definitions {
        createSingleton("mailer") { [tag] in CCMailer(tag) }
        createPrototype("report") { [tag] in CCReport(tag) }
        createSingleton("monthlyReport") { [tag] in CCReport("monthly-\(tag)") }
        createPrototype("screen") { CCScreen() }
        createSingleton("currency") { [tag] in "currency-\(tag)" }
    }
}

/// A started context of `TagFactory` (the synchronous start, also from async tests).
func startTagged(_ tag: String) throws -> ApplicationContext {
    try ApplicationContext(TagFactory(tag: tag))
}

/// The tag of the mailer a `CCScreen` made here with its plain `init` resolves, or `nil` when it
/// resolves none.
func plainScreenTag() -> String? {
    (try? CCScreen().$mailer.get())?.tag
}

extension Sync {
    /// The synchronous `withCurrent` (in an async function Swift would pick the async one).
    static func withCurrent<R>(_ context: ApplicationContext, _ body: () throws -> R) rethrows -> R {
        try context.withCurrent(body)
    }
}

/// Hands a non-`Sendable` test object to another task or thread.
final class UncheckedBox<Value>: @unchecked Sendable {
    // Safe: `value` is immutable; the objects passed are only read, and the first read of their
    // `@Inject` properties is synchronised by the library (which is what the tests check).
    let value: Value
    init(_ value: Value) { self.value = value }
}
