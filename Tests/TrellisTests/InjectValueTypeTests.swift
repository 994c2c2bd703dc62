import Testing
import Trellis

private final class ValueMailer {}

private protocol ValueScreen { var mailer: ValueMailer { get } }

private struct ValueHolder: ValueScreen {
    @Inject var mailer: ValueMailer
    @Inject var missing: ValueMailer?
}

private struct ValueTypeFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { ValueMailer() }
        createPrototype("holder") { ValueHolder() }
        createSingleton("singletonHolder") { ValueHolder() }
        createPrototype("screen") { ValueHolder() as any ValueScreen }
        createPrototype("anything") { ValueHolder() as Any }
        // Declared as optionals.
        createSingleton("optionalWidget") { Optional(ValueWidget()) }
        createPrototype("optionalWidgets") { Optional(ValueWidget()) }
        createPrototype("noWidget") { () -> ValueWidget? in nil }
        createPrototype("optionalHolder") { Optional(ValueHolder()) }
    }
}

private final class ValueWidget {
    @Inject var mailer: ValueMailer
}

@Suite struct InjectValueTypeTests {
    @Test func structMadeAsAPrototypeIsInjected() throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let holder: ValueHolder = try context.object("holder")
        #expect(holder.mailer === (try context.object("mailer", as: ValueMailer.self)))
        #expect(holder.missing == nil)
    }

    @Test func structMadeAsASingletonIsInjectedInItsCache() throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let holder: ValueHolder = try context.object("singletonHolder")
        #expect(holder.mailer === (try context.object("mailer", as: ValueMailer.self)))
    }

    @Test(arguments: ["optionalWidget", "optionalWidgets"])
    func aClassInstanceDeclaredAsAnOptionalIsInjected(key: String) async throws {
        // Docs/Injection.md: a definition's object may be any type; an optional's object is
        // injected as the instance it wraps.
        let context = try Sync.start(ValueTypeFactory())
        let mailer = try Sync.object(context, "mailer", as: ValueMailer.self)
        let widget = try #require(try Sync.object(context, key, as: ValueWidget?.self))
        #expect(try await widget.$mailer.get() === mailer)
        let awaited = try #require(try await context.object(key, as: ValueWidget?.self))
        #expect(try await awaited.$mailer.get() === mailer)
        #expect(try Sync.object(context, "noWidget", as: ValueWidget?.self) == nil)
        let report = Sync.validate(ValueTypeFactory())
        #expect(!report.problems.contains { "\($0)".contains("Widget") }, "\(report)")
    }

    @Test func aStructDeclaredAsAnOptionalFailsClearlyInsteadOfStayingEmpty() throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let error = #expect(throws: ContextError.self) { try context.object("optionalHolder", as: ValueHolder?.self) }
        guard case let .creationFailed(key, _, underlying)? = error else {
            Issue.record("expected creationFailed, got \(String(describing: error))")
            return
        }
        #expect(key == "optionalHolder")
        #expect(underlying is StructInExistentialInjectionError)
        // Says what the definition did (an optional, not an existential) and names it.
        #expect(String(describing: underlying).contains("definition 'optionalHolder' returns it as an optional"))
    }

    @Test(arguments: ["screen", "anything"])
    func structDeclaredAsAnExistentialFailsClearlyInsteadOfStayingEmpty(key: String) throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let error = #expect(throws: ContextError.self) { try context.object(key, as: Any.self) }
        guard case let .creationFailed(failedKey, _, underlying)? = error else {
            Issue.record("expected creationFailed, got \(String(describing: error))")
            return
        }
        #expect(failedKey == key)
        #expect(underlying is StructInExistentialInjectionError)
        #expect(String(describing: underlying).contains("ValueHolder"))
        #expect(String(describing: underlying).contains("definition '\(key)' returns it as an existential"))
    }

    @Test func structLookedUpAsAnotherTypeIsInjectedToo() throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let screen: any ValueScreen = try context.object("holder")
        #expect(screen.mailer === (try context.object("mailer", as: ValueMailer.self)))
    }
}

// MARK: - A struct singleton in a property cycle (issue 10, point 6)

/// A struct singleton whose property is a class singleton whose property is the struct again.
private struct CycleValue {
    @Inject var partner: CyclePartner
}

private final class CyclePartner {
    @Inject var value: CycleValue
}

/// The same through a longer ring: value → first → second → value.
private struct RingValue {
    @Inject var first: RingFirst
}

private final class RingFirst {
    @Inject var second: RingSecond
}

private final class RingSecond {
    @Inject var ringValue: RingValue
}

private struct ValueCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("value") { CycleValue() }
        createSingleton("partner") { CyclePartner() }
        createSingleton("ringValue") { RingValue() }
        createSingleton("first") { RingFirst() }
        createSingleton("second") { RingSecond() }
    }
}

private struct EagerValueCycleFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("value") { CycleValue() }
        createSingleton("partner") { CyclePartner() }
    }
}

/// Whether `value`'s property was injected (its read would not stop the program).
private func isInjected(_ value: CycleValue) -> Bool {
    (try? value.$partner.get()) != nil
}

@Suite("Value types in property cycles")
struct InjectValueTypeCycleTests {
    @Test(arguments: [
        ("value", ["value", "partner", "value"]),
        ("ringValue", ["ringValue", "first", "second", "ringValue"]),
    ])
    func structSingletonFirstAskedInAPropertyCycleIsACircularDependency(key: String, path: [String]) throws {
        let context = try ApplicationContext(ValueCycleFactory())
        let error = #expect(throws: ContextError.self) { try context.object(key, as: Any.self) }
        #expect(error == .circularDependency(path: path))
        let message = error?.description ?? ""
        #expect(message.contains(path.joined(separator: " → ")), "\(message)")
        #expect(message.contains("value type"), "the message should say value types cannot take part in property cycles: \(message)")
    }

    @Test func structSingletonInAPropertyCycleIsNeverHandedOutHalfInjected() throws {
        let context = try ApplicationContext(ValueCycleFactory())
        _ = try? context.object("value", as: CycleValue.self)
        // Whatever the first lookup did, nothing it made may hold an uninjected copy.
        if let partner = try? context.object("partner", as: CyclePartner.self) {
            let value = try #require(try? partner.$value.get())
            #expect(isInjected(value), "partner holds a copy of the struct whose @Inject property was never filled")
        }
        if let value = try? context.object("value", as: CycleValue.self) {
            #expect(isInjected(value), "the struct singleton was handed out with its @Inject property never filled")
        }
    }

    @Test func classSingletonFirstAskedInACycleWithAStructNeverHoldsAHalfInjectedCopy() throws {
        // Asked from the class side the struct is made after the class: its copy can be complete.
        // Either the context says the cycle cannot be satisfied, or every copy is complete.
        let context = try ApplicationContext(ValueCycleFactory())
        do throws(ContextError) {
            let partner: CyclePartner = try context.object("partner")
            let value = try partner.$value.get()
            #expect(isInjected(value), "partner holds a copy of the struct whose @Inject property was never filled")
            #expect(try value.$partner.get() === partner)
            let cached: CycleValue = try context.object("value")
            #expect(isInjected(cached))
        } catch {
            guard case .circularDependency = error else {
                Issue.record("expected success or circularDependency, got \(error)")
                return
            }
        }
    }

    @Test func eagerStructSingletonInAPropertyCycleFailsTheStartWithACircularDependency() {
        let error = #expect(throws: ContextError.self) { try ApplicationContext(EagerValueCycleFactory()) }
        #expect(error == .circularDependency(path: ["value", "partner", "value"]))
    }

    @Test func validateReportsAStructSingletonInAPropertyCycle() {
        let report = ApplicationContext.validate(EagerValueCycleFactory())
        #expect(report.problems.contains(.circularDependency(path: ["value", "partner", "value"])), "\(report)")
    }
}
