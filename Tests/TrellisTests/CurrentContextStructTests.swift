import Testing
import Trellis

// Docs/Injection.md, "Plain init and the current context", for struct owners: a struct made with its plain `init` while a context is current has
// its `@Inject` properties resolved from that context on first read. A struct's property cannot
// learn its name from a key path (there is no enclosing instance), so the library learns it from
// the declaring type's name, from a context that injected an object of the type before, or, as a
// last resort, by the property's type (Docs/Injection.md). These tests pin each way.

final class StructCaseMailer: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class StructCaseReport: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

final class StructCaseToken: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// Internal and top-level, so the library can find the type by its name. Two properties of one
/// type, and a factory with several definitions of each type: only the property's name can tell
/// which object it means. No context ever makes one (that would teach the library its names, see
/// `PrivateLearnedForm`), so the tests that use it show how a plain-init struct is named alone.
struct StructCaseForm {
    @Inject var mailer: StructCaseMailer
    @Inject var first: StructCaseReport
    @Inject var second: StructCaseReport
    @Inject("backupMailer") var keyed: StructCaseMailer
    @Inject var optional: StructCaseReport?
    @Inject var currency: String = "EUR"
    @Inject var locale: String = "en"
    @Inject(.lazy) var lazyReport: StructCaseReport
}

/// As `StructCaseForm`, made by a context (`madeForm`).
struct StructCaseMadeForm {
    @Inject var mailer: StructCaseMailer
    @Inject var first: StructCaseReport
    @Inject(.lazy) var lazyReport: StructCaseReport
}

/// Reads an injected property in its own `init`.
struct StructCaseGreeting {
    @Inject var mailer: StructCaseMailer
    var greeting = ""
    init() { greeting = "sent by \(mailer.tag)" }
}

/// Assigns its property in `init`: the value is kept.
struct StructCasePreset {
    @Inject var mailer: StructCaseMailer
    init(mailer: StructCaseMailer) { self.mailer = mailer }
}

private struct StructCaseFactory: ObjectFactory {
    let tag: String
    var contextName: String { "Struct\(tag)" }
    var definitions: Definitions {
        createSingleton("mailer") { [tag] in StructCaseMailer(tag) }
        createSingleton("backupMailer") { [tag] in StructCaseMailer("backup-\(tag)") }
        createSingleton("first") { [tag] in StructCaseReport("first-\(tag)") }
        createSingleton("second") { [tag] in StructCaseReport("second-\(tag)") }
        createSingleton("lazyReport") { [tag] in StructCaseReport("lazy-\(tag)") }
        createSingleton("currency") { [tag] in "currency-\(tag)" }
        createSingleton("token") { [tag] in StructCaseToken(tag) }
        createPrototype("madeForm") { StructCaseMadeForm() }
        createPrototype("learnedForm") { PrivateLearnedForm() }
        createPrototype("nestedForm") { StructCaseGenericOuter<Int>.StructCaseNamesake() }
    }
}

/// A top-level type, and a type of the same simple name nested in a generic type: a context
/// injects the nested one (`nestedForm`), which teaches the library its property's name.
struct StructCaseNamesake {
    @Inject var first: StructCaseReport
}

enum StructCaseGenericOuter<Tag> {
    struct StructCaseNamesake {
        @Inject var second: StructCaseReport
    }
}

/// Two types declared on one line, each with a property of one type.
struct StructCaseLineA { @Inject var first: StructCaseReport }; struct StructCaseLineB { @Inject var second: StructCaseReport
    @Inject var lazyReport: StructCaseReport
}

/// Private: not found by its name. Its one property's type has one definition: found by type.
private struct PrivateFormFoundByType {
    @Inject var token: StructCaseToken
}

/// Private, and its property's type has several definitions: neither its name nor its type tells.
private struct PrivateFormAmbiguous {
    @Inject var first: StructCaseReport
}

/// Private, but a context injects one first (`learnedForm`), which teaches the names.
private struct PrivateLearnedForm {
    @Inject var second: StructCaseReport
}

/// Private, with an explicit key: never needs a name.
private struct PrivateKeyedForm {
    @Inject("second") var report: StructCaseReport
}

/// Two properties of one type declared on one line: the line cannot tell them apart.
private struct PrivateOneLineForm { @Inject var first: StructCaseReport; @Inject var second: StructCaseReport }

/// Two types declared on one line, each with a property of one type.
private struct PrivateFirstOnALine { @Inject var first: StructCaseReport }; private struct PrivateSecondOnALine { @Inject var second: StructCaseReport }

private struct OneLineFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("first") { StructCaseReport("first") }
        createSingleton("second") { StructCaseReport("second") }
        createPrototype("oneLine") { PrivateOneLineForm() }
        createPrototype("firstOnALine") { PrivateFirstOnALine() }
    }
}

private func startStructCase(_ tag: String) throws -> ApplicationContext {
    try ApplicationContext(StructCaseFactory(tag: tag))
}

// A failed read of a plain property stops the process, so these tests read through
// `$property.get()` (a failure is then a thrown error, and the other tests still run); reading in
// `init` runs in an exit test.
@Suite struct CurrentContextStructTests {
    @Test func aStructsPropertiesResolveByTheirNames() throws {
        let a = try startStructCase("A")
        let form = Sync.withCurrent(a) { StructCaseForm() }
        #expect(try form.$mailer.get().tag == "A")
        #expect(try form.$first.get().tag == "first-A")
        #expect(try form.$second.get().tag == "second-A")
        #expect(try form.$keyed.get().tag == "backup-A")
        #expect(try form.$optional.get() == nil)
        #expect(try form.$currency.get() == "currency-A")
        #expect(try form.$locale.get() == "en")
        #expect(try form.$lazyReport.get().tag == "lazy-A")
    }

    @Test func aStructPropertyKeepsItsObjectAndCopiesShareIt() throws {
        let a = try ApplicationContext(PrototypeStructFactory())
        let form = Sync.withCurrent(a) { StructCaseForm() }
        let copy = form
        let first = try form.$keyed.get()
        #expect(try form.$keyed.get() === first)
        #expect(try copy.$keyed.get() === first)
    }

    @Test func aStructCanUseItsPropertiesInItsInit() async {
        await #expect(processExitsWith: .success) {
            guard let a = try? startStructCase("A") else { fatalError("start") }
            let greeting = Sync.withCurrent(a) { StructCaseGreeting() }
            if greeting.greeting != "sent by A" { fatalError("greeting: \(greeting.greeting)") }
        }
    }

    @Test func aStructPropertyAssignedInInitOrBeforeTheFirstReadIsKept() throws {
        let a = try startStructCase("A")
        let double = StructCaseMailer("double")
        let preset = Sync.withCurrent(a) { StructCasePreset(mailer: double) }
        #expect(try preset.$mailer.get() === double)

        var form = Sync.withCurrent(a) { StructCaseForm() }
        form.mailer = double
        form.currency = "CHF"
        #expect(try form.$mailer.get() === double)
        #expect(try form.$currency.get() == "CHF")
        #expect(try form.$keyed.get().tag == "backup-A")
    }

    @Test func aStructResolvesFromTheContextCurrentWhenItWasMade() throws {
        let a = try startStructCase("A")
        let b = try startStructCase("B")
        let form = Sync.withCurrent(a) { StructCaseForm() }
        #expect(try Sync.withCurrent(b) { try form.$keyed.get().tag } == "backup-A")
    }

    @Test func aStructMadeByAContextIsInjectedByThatContextWhileAnotherIsCurrent() throws {
        let a = try startStructCase("A")
        let b = try startStructCase("B")
        let form = try Sync.withCurrent(a) { try b.object("madeForm", as: StructCaseMadeForm.self) }
        #expect(try form.$mailer.get().tag == "B")
        #expect(try form.$first.get().tag == "first-B")
        #expect(try form.$lazyReport.get().tag == "lazy-B")
    }

    @Test func aPrivateStructsPropertyWithAnExplicitKeyResolves() throws {
        let a = try startStructCase("A")
        let form = Sync.withCurrent(a) { PrivateKeyedForm() }
        #expect(try form.$report.get().tag == "second-A")
    }

    @Test func aPrivateStructsPropertyResolvesByItsTypeWhenOneDefinitionHasIt() throws {
        let a = try startStructCase("A")
        let form = Sync.withCurrent(a) { PrivateFormFoundByType() }
        #expect(try form.$token.get().tag == "A")
    }

    @Test func aPrivateStructsPropertyWhoseNameAndTypeCannotTellSaysToGiveAKey() throws {
        let a = try startStructCase("A")
        let form = Sync.withCurrent(a) { PrivateFormAmbiguous() }
        let error = syncError { try form.$first.get() }
        guard case let .unnamedProperty(_, _, _, candidates)? = error else {
            Issue.record("expected unnamedProperty, got \(String(describing: error))")
            return
        }
        #expect(candidates.count > 1)
        #expect(error?.description.contains("@Inject(\"key\")") == true)
        #expect(error?.description.contains("setDefault") == false)
        #expect(error?.description.contains("CurrentContextStructTests.swift") == true)
    }

    @Test func propertiesDeclaredOnOneLineAreNeverGivenEachOthersNames() throws {
        // Docs/Injection.md: a name that cannot be told is not guessed; the read says to give a
        // key instead of handing out another property's object.
        let context = try Sync.start(OneLineFactory())
        _ = try context.object("oneLine", as: PrivateOneLineForm.self)
        _ = try context.object("firstOnALine", as: PrivateFirstOnALine.self)
        let form = Sync.withCurrent(context) { PrivateOneLineForm() }
        for error in [syncError { try form.$first.get() }, syncError { try form.$second.get() }] {
            guard case .unnamedProperty? = error else {
                Issue.record("expected unnamedProperty, got \(String(describing: error))")
                continue
            }
        }
        // The other type on the line keeps its own name.
        let second = Sync.withCurrent(context) { PrivateSecondOnALine() }
        let error = syncError { try second.$second.get() }
        guard case .unnamedProperty? = error else {
            Issue.record("expected unnamedProperty (never the first type's 'first'), got \(String(describing: error))")
            return
        }
        #expect(try Sync.withCurrent(context) { PrivateFirstOnALine() }.$first.get().tag == "first")
    }

    @Test func aStructNestedInAGenericTypeUsesTheNameLearnedFromItsInjectionNotItsNamesakes() throws {
        // Docs/Injection.md: the name recorded when a context injected the type comes first.
        let a = try startStructCase("A")
        _ = try a.object("nestedForm", as: StructCaseGenericOuter<Int>.StructCaseNamesake.self)
        let form = Sync.withCurrent(a) { StructCaseGenericOuter<Int>.StructCaseNamesake() }
        #expect(try form.$second.get().tag == "second-A")
    }

    @Test func aTypeDeclaredOnTheLineOfAnotherIsNamedByItsOwnDeclarations() throws {
        // Docs/Injection.md: a declaration is told by its line, its type and its property type;
        // the first type made on the line does not hide the second's.
        let a = try startStructCase("A")
        #expect(try Sync.withCurrent(a) { StructCaseLineA() }.$first.get().tag == "first-A")
        let b = Sync.withCurrent(a) { StructCaseLineB() }
        #expect(try b.$second.get().tag == "second-A")
        #expect(try b.$lazyReport.get().tag == "lazy-A")
    }

    @Test func aPrivateStructsPropertyNamesAreLearnedFromAnInjectionByAContext() throws {
        let a = try startStructCase("A")
        _ = try a.object("learnedForm", as: PrivateLearnedForm.self)
        let form = Sync.withCurrent(a) { PrivateLearnedForm() }
        #expect(try form.$second.get().tag == "second-A")
    }
}

/// `backupMailer`, `first` and `second` are prototypes here: a kept object is told apart from a new lookup.
private struct PrototypeStructFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { StructCaseMailer("P") }
        createPrototype("backupMailer") { StructCaseMailer("backup") }
        createPrototype("first") { StructCaseReport("first") }
        createPrototype("second") { StructCaseReport("second") }
    }
}
