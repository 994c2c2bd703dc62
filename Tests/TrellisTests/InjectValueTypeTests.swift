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
    }
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
    }

    @Test func structLookedUpAsAnotherTypeIsInjectedToo() throws {
        let context = try ApplicationContext(ValueTypeFactory())
        let screen: any ValueScreen = try context.object("holder")
        #expect(screen.mailer === (try context.object("mailer", as: ValueMailer.self)))
    }
}
