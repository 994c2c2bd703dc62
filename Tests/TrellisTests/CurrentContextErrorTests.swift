import Foundation
import Testing
import Trellis

// Docs/Injection.md, "Plain init and the current context": what the first read of a plain-init object's property throws, through
// `$property.get()` (the plain read stops the program with the same message).

// MARK: - Errors, through `$property.get()`

private final class CCMissing {
    @Inject var nothingHere: CCMailer
}

/// Internal and top-level: found by its name.
struct CCMissingInStruct {
    @Inject var nothingHere: CCMailer
}

/// Keys the context does not define: an optional, a default, a required property.
private final class CCUndefinedKeys {
    @Inject var analytics: CCMailer?
    @Inject var theme: String = "light"
    @Inject var nothingHere: CCMailer
}

private final class CCWrongType {
    @Inject("mailer") var mailer: CCReport
}

private final class CCBrokenChain {
    @Inject var broken: CCMailer
}

private final class CCFlaky {
    @Inject var flaky: CCMailer
}

private struct FlakyError: Error {}

private struct ErrorFactory: ObjectFactory {
    let attempts: InjCounter
    var definitions: Definitions {
        createSingleton("mailer") { CCMailer("E") }
        createSingleton("broken") { r in CCMailer(try r.object("clok", as: String.self)) }
        createSingleton("flaky") { [attempts] () throws -> CCMailer in
            attempts.increment()
            if attempts.value == 1 { throw FlakyError() }
            return CCMailer("flaky")
        }
        createSingleton("slowStart") { () async -> CCMailer in
            await Task.yield()
            return CCMailer("async")
        }
    }
}

private final class CCAsyncHolder {
    @Inject var slowStart: CCMailer
}

/// `$property.get()` called from a synchronous function, so that Swift picks the synchronous form.
private func syncGet<Value>(_ property: InjectedProperty<Value>) throws(ContextError) -> Value {
    try property.get()
}

@Suite struct CurrentContextErrorTests {
    @Test func aPlainReadWhoseFirstReadFailsStopsNamingTheDeclarationAndGet() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
            let object = context.withCurrent { CCMissing() }
            _ = object.nothingHere
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("could not be read"))
        #expect(stderr.contains("nothingHere"))
        #expect(stderr.contains("try $property.get()"))
        #expect(stderr.contains("CurrentContextErrorTests.swift:11"))
    }

    @Test func anUnknownKeyInTheCurrentContextIsUnresolvedInjectionNamingTheKey() throws {
        let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCMissing() }
        let error = syncError { try object.$nothingHere.get() }
        guard case let .unresolvedInjection(type, property, key)? = error else {
            Issue.record("expected unresolvedInjection, got \(String(describing: error))")
            return
        }
        #expect(key == "nothingHere")
        #expect(property == "nothingHere")
        #expect(type.contains("CCMissing"))
        #expect(error?.description.contains("nothingHere") == true)
    }

    @Test func anUnknownKeyOfAStructNamesItsTypeAsAnInjectionByAContextWould() throws {
        // Docs/Injection.md: the error names the owner type, qualified.
        let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCMissingInStruct() }
        let error = syncError { try object.$nothingHere.get() }
        guard case let .unresolvedInjection(type, _, _)? = error else {
            Issue.record("expected unresolvedInjection, got \(String(describing: error))")
            return
        }
        #expect(type == String(reflecting: CCMissingInStruct.self))
    }

    @Test func anUnknownKeyIsReportedAgainOnTheNextRead() throws {
        let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCMissing() }
        #expect(throws: ContextError.self) { try object.$nothingHere.get() }
        #expect(throws: ContextError.self) { try object.$nothingHere.get() }
    }

    @Test func aWrongTypeIsTypeMismatch() throws {
        let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCWrongType() }
        let error = syncError { try object.$mailer.get() }
        guard case .typeMismatch? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("mailer") == true)
        #expect(error?.description.contains("CCReport") == true)
    }

    @Test func aMissingKeyInsideTheDefinitionIsNoSuchObjectNamingThatKey() throws {
        let context = try ApplicationContext(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCBrokenChain() }
        let error = syncError { try object.$broken.get() }
        guard case let .noSuchObject(key, _, path)? = error else {
            Issue.record("expected noSuchObject, got \(String(describing: error))")
            return
        }
        #expect(key == "clok")
        #expect(path.contains("broken"))
    }

    @Test func aThrowingDefinitionIsCreationFailedAndTheNextReadTriesAgain() throws {
        let attempts = InjCounter()
        let context = try ApplicationContext(ErrorFactory(attempts: attempts))
        let object = Sync.withCurrent(context) { CCFlaky() }
        let error = syncError { try object.$flaky.get() }
        guard case let .creationFailed(key, _, underlying)? = error else {
            Issue.record("expected creationFailed, got \(String(describing: error))")
            return
        }
        #expect(key == "flaky")
        #expect(underlying is FlakyError)
        #expect(object.flaky.tag == "flaky")
        #expect(attempts.value == 2)
    }

    @Test func anAsyncDefinitionNeedsTheAsyncGetAndThenIsKept() async throws {
        let context = try Sync.start(ErrorFactory(attempts: InjCounter()))
        let object = Sync.withCurrent(context) { CCAsyncHolder() }
        let error = syncError { try syncGet(object.$slowStart) }
        #expect(error?.requiresAwaitKeyAndPath?.key == "slowStart")
        let made = try await object.$slowStart.get()
        #expect(made.tag == "async")
        #expect(object.slowStart === made)
        #expect(try syncGet(object.$slowStart) === made)
    }

    @Test func theNotedContextIsHeldWeaklyAndAReadAfterItIsGoneIsContextReleased() throws {
        var screen: CCScreen?
        weak var released: ApplicationContext?
        do {
            let a = try startTagged("A")
            released = a
            screen = Sync.withCurrent(a) { CCScreen() }
        }
        #expect(released == nil)
        let error = syncError { try screen?.$mailer.get() }
        guard case let .contextReleased(context, key)? = error else {
            Issue.record("expected contextReleased, got \(String(describing: error))")
            return
        }
        #expect(context == "TagA")
        // Named as the lookup would have named it: by the property's name, its key.
        #expect(key == "mailer")
    }

    @Test func aReadAfterTheNotedContextClosedIsContextClosed() throws {
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { CCScreen() }
        try a.close()
        let error = syncError { try screen.$mailer.get() }
        guard case .contextClosed? = error else {
            Issue.record("expected contextClosed, got \(String(describing: error))")
            return
        }
    }

    @Test func aReadAfterTheNotedContextClosedIsContextClosedAlsoForAKeyItDoesNotDefine() throws {
        // As a lookup by name on a closed context: not the default, not `nil`, not
        // `unresolvedInjection`.
        let a = try startTagged("A")
        let screen = Sync.withCurrent(a) { CCUndefinedKeys() }
        try a.close()
        for read in [{ _ = try screen.$analytics.get() }, { _ = try screen.$theme.get() }, { _ = try screen.$nothingHere.get() }] as [() throws -> Void] {
            let error = syncError(read)
            guard case let .contextClosed(context, _)? = error else {
                Issue.record("expected contextClosed, got \(String(describing: error))")
                continue
            }
            #expect(context == "TagA")
        }
    }
}
