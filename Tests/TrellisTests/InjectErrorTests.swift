import Testing
import Trellis

private final class Payments {}
private final class Gateway {}

private final class Checkout {
    @Inject var mailer: Payments
}

private final class ExplicitCheckout {
    @Inject("paymentGateway") var payments: Payments
}

private final class OptionalCheckout {
    @Inject var gateway: Payments?
}

private struct MissingFactory: ObjectFactory {
    let made: InjCounter
    var definitions: Definitions {
        createSingleton("checkout") { [made] in
            made.increment()
            return Checkout()
        }
        createPrototype("explicit") { ExplicitCheckout() }
    }
}

@Test func requiredPropertyWithNoObjectIsAnUnresolvedInjectionNamingOwnerPropertyAndKey() throws {
    let context = try ApplicationContext(MissingFactory(made: InjCounter()))
    let error = try #require(throws: ContextError.self) { try context.object("checkout", as: Checkout.self) }
    guard case let .unresolvedInjection(type, property, key) = error else {
        Issue.record("expected unresolvedInjection, got \(error)")
        return
    }
    #expect(type.hasSuffix("Checkout"))
    #expect(property == "mailer")
    #expect(key == "mailer")
    let message = error.description
    #expect(message.contains("Checkout"))
    #expect(message.contains("'mailer'"))
}

@Test func unresolvedInjectionWithAnExplicitKeyNamesPropertyAndKeyApart() throws {
    let context = try ApplicationContext(MissingFactory(made: InjCounter()))
    let error = try #require(throws: ContextError.self) { try context.object("explicit", as: ExplicitCheckout.self) }
    guard case let .unresolvedInjection(type, property, key) = error else {
        Issue.record("expected unresolvedInjection, got \(error)")
        return
    }
    #expect(type.hasSuffix("ExplicitCheckout"))
    #expect(property == "payments")
    #expect(key == "paymentGateway")
    #expect(error.description.contains("'payments'"))
    #expect(error.description.contains("'paymentGateway'"))
}

@Test func singletonWhoseInjectionFailedIsNotCachedAndIsRetried() throws {
    let made = InjCounter()
    let context = try ApplicationContext(MissingFactory(made: made))
    #expect(throws: ContextError.self) { try context.object("checkout", as: Checkout.self) }
    #expect(throws: ContextError.self) { try context.object("checkout", as: Checkout.self) }
    #expect(made.value == 2)
}

@Test func injectIntoThrowsUnresolvedInjection() throws {
    let context = try ApplicationContext(MissingFactory(made: InjCounter()))
    let error = try #require(throws: ContextError.self) { try context.inject(into: Checkout()) }
    guard case let .unresolvedInjection(type, property, key) = error else {
        Issue.record("expected unresolvedInjection, got \(error)")
        return
    }
    #expect(type.hasSuffix("Checkout"))
    #expect(property == "mailer")
    #expect(key == "mailer")
}

private struct EagerMissingFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("checkout") { Checkout() }
    }
}

@Test func eagerSingletonWithAnUnresolvedInjectionFailsTheStart() {
    let error = #expect(throws: ContextError.self) { try ApplicationContext(EagerMissingFactory()) }
    guard case let .unresolvedInjection(_, property, key)? = error else {
        Issue.record("expected unresolvedInjection, got \(String(describing: error))")
        return
    }
    #expect(property == "mailer")
    #expect(key == "mailer")
}

private struct WrongTypeFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Gateway() }
        createSingleton("gateway") { 42 }
        createSingleton("checkout") { Checkout() }
        createPrototype("optional") { OptionalCheckout() }
    }
}

@Test func injectedObjectOfTheWrongTypeIsATypeMismatchWithThePath() throws {
    let context = try ApplicationContext(WrongTypeFactory())
    let error = try #require(throws: ContextError.self) { try context.object("checkout", as: Checkout.self) }
    guard case let .typeMismatch(key, expected, actual, path) = error else {
        Issue.record("expected typeMismatch, got \(error)")
        return
    }
    #expect(key == "mailer")
    #expect(expected.hasSuffix("Payments"))
    #expect(actual.hasSuffix("Gateway"))
    #expect(path == ["checkout", "mailer"])
    #expect(error.description.contains("'mailer'"))
    #expect(error.description.contains("Payments"))
    #expect(error.description.contains("Gateway"))
}

@Test func optionalPropertyFindingTheWrongTypeIsATypeMismatchNotNil() throws {
    let context = try ApplicationContext(WrongTypeFactory())
    let error = try #require(throws: ContextError.self) { try context.object("optional", as: OptionalCheckout.self) }
    guard case let .typeMismatch(key, _, actual, _) = error else {
        Issue.record("expected typeMismatch, got \(error)")
        return
    }
    #expect(key == "gateway")
    #expect(actual == "Swift.Int")
}

@Test func injectIntoThrowsTypeMismatch() throws {
    let context = try ApplicationContext(WrongTypeFactory())
    let error = try #require(throws: ContextError.self) { try context.inject(into: Checkout()) }
    guard case let .typeMismatch(key, _, actual, _) = error else {
        Issue.record("expected typeMismatch, got \(error)")
        return
    }
    #expect(key == "mailer")
    #expect(actual.hasSuffix("Gateway"))
}

// MARK: - A failed singleton in a property cycle

private struct FlakyError: Error {}

/// Throws the first time it is asked, then makes a `Gateway`.
private final class FlakyGate: Sendable {
    let calls = InjCounter()
    func make() throws -> Gateway {
        calls.increment()
        if calls.value == 1 { throw FlakyError() }
        return Gateway()
    }
}

private final class CycleA {
    @Inject var b: CycleB
    @Inject var flaky: Gateway
}

private final class CycleB {
    @Inject var a: CycleA
}

private struct FlakyCycleFactory: ObjectFactory {
    let gate = FlakyGate()
    var definitions: Definitions {
        createSingleton("a") { CycleA() }
        createSingleton("b") { CycleB() }
        createSingleton("flaky") { [gate] in try gate.make() }
    }
}

@Test func singletonWhoseInjectionFailedIsNotLeftInsideItsCyclePartner() throws {
    let context = try ApplicationContext(FlakyCycleFactory())
    let error = #expect(throws: ContextError.self) { try context.object("a", as: CycleA.self) }
    if case .creationFailed(let key, _, _)? = error {
        #expect(key == "flaky")
    } else {
        Issue.record("expected creationFailed, got \(String(describing: error))")
    }
    let a = try context.object("a", as: CycleA.self)
    let b = try context.object("b", as: CycleB.self)
    #expect(a.b === b)
    #expect(b.a === a, "b was cached holding the first, failed instance of a")
}

private final class DeepA {
    @Inject var b: DeepB
    @Inject var flaky: Gateway
}

private final class DeepB {
    @Inject var c: DeepC
}

private final class DeepC {
    @Inject var a: DeepA
}

private struct DeepSingletonCycleFactory: ObjectFactory {
    let gate = FlakyGate()
    var definitions: Definitions {
        createSingleton("a") { DeepA() }
        createSingleton("b") { DeepB() }
        createSingleton("c") { DeepC() }
        createSingleton("flaky") { [gate] in try gate.make() }
    }
}

@Test func failedSingletonIsNotLeftInsideSingletonsMadeBelowItInALongerCycle() throws {
    let context = try ApplicationContext(DeepSingletonCycleFactory())
    #expect(throws: ContextError.self) { try context.object("a", as: DeepA.self) }
    let a = try context.object("a", as: DeepA.self)
    let b = try context.object("b", as: DeepB.self)
    let c = try context.object("c", as: DeepC.self)
    #expect(a.b === b)
    #expect(b.c === c, "b was cached holding a c that was forgotten")
    #expect(c.a === a, "c was cached holding the first, failed instance of a")
}

private final class ViaPrototypeB {
    @Inject var p: ViaPrototypeP
}

private final class ViaPrototypeP {
    @Inject var a: ViaPrototypeA
}

private final class ViaPrototypeA {
    @Inject var b: ViaPrototypeB
    @Inject var flaky: Gateway
}

private struct PrototypeInCycleFactory: ObjectFactory {
    let gate = FlakyGate()
    var definitions: Definitions {
        createSingleton("a") { ViaPrototypeA() }
        createSingleton("b") { ViaPrototypeB() }
        createPrototype("p") { ViaPrototypeP() }
        createSingleton("flaky") { [gate] in try gate.make() }
    }
}

@Test func failedSingletonIsNotLeftInsideASingletonThroughAPrototype() throws {
    let context = try ApplicationContext(PrototypeInCycleFactory())
    #expect(throws: ContextError.self) { try context.object("a", as: ViaPrototypeA.self) }
    let a = try context.object("a", as: ViaPrototypeA.self)
    let b = try context.object("b", as: ViaPrototypeB.self)
    #expect(a.b === b)
    #expect(b.p.a === a, "b was cached holding a prototype that holds the first, failed instance of a")
}

// MARK: - A failed inject(into:) leaves the property pending (issue 10, point 10)

private final class RetryTarget {
    @Inject var gateway: Gateway
}

private final class RetryPartlyFilled {
    @Inject var payments: Payments
    @Inject var gateway: Gateway
    @Inject("payments") var optionalPayments: Payments?
}

private final class RetryLazy {
    @Inject("gateway", .lazy) var lazyGateway: Gateway
}

/// "gateway" throws the first time it is made, then makes a `Gateway`.
private struct RetryFactory: ObjectFactory {
    let gate = FlakyGate()
    var definitions: Definitions {
        createSingleton("payments") { Payments() }
        createSingleton("gateway") { [gate] in try gate.make() }
    }
}

private struct RetryEmptyFactory: ObjectFactory {
    var contextName: String { "Empty" }
    var definitions: Definitions {
        createSingleton("unrelated") { Payments() }
    }
}

private struct RetryProvidingFactory: ObjectFactory {
    var contextName: String { "Providing" }
    var definitions: Definitions {
        createSingleton("gateway") { Gateway() }
    }
}

private struct RetryWrongTypeFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("gateway") { Payments() }
    }
}

/// Whether `$gateway` still reads as never injected (not filled, not given a broken value).
private func isPending(_ target: RetryTarget) -> Bool {
    do throws(ContextError) {
        _ = try target.$gateway.get()
        return false
    } catch {
        if case .neverInjected = error { return true }
        return false
    }
}

@Test func failedInjectIntoLeavesThePropertyPendingSoARetryFillsIt() throws {
    let context = try ApplicationContext(RetryFactory())
    let target = RetryTarget()
    let error = #expect(throws: ContextError.self) { try context.inject(into: target) }
    guard case .creationFailed(let key, _, _)? = error else {
        Issue.record("expected creationFailed, got \(String(describing: error))")
        return
    }
    #expect(key == "gateway")
    #expect(isPending(target), "the failed injection marked the property as done")
    try context.inject(into: target)
    #expect(try target.$gateway.get() === (try context.object("gateway", as: Gateway.self)))
}

@Test func failedInjectIntoFillsTheRestOnRetryAndKeepsWhatItFilled() throws {
    let context = try ApplicationContext(RetryFactory())
    let target = RetryPartlyFilled()
    #expect(throws: ContextError.self) { try context.inject(into: target) }
    try context.inject(into: target)
    let payments: Payments = try context.object("payments")
    #expect(try target.$payments.get() === payments)
    #expect(try target.$gateway.get() === (try context.object("gateway", as: Gateway.self)))
    #expect(target.optionalPayments === payments)
}

@Test func unresolvedInjectionLeavesThePropertyPendingForAnotherContextToFill() throws {
    let empty = try ApplicationContext(RetryEmptyFactory())
    let target = RetryTarget()
    let error = #expect(throws: ContextError.self) { try empty.inject(into: target) }
    guard case .unresolvedInjection(_, "gateway", "gateway")? = error else {
        Issue.record("expected unresolvedInjection, got \(String(describing: error))")
        return
    }
    #expect(isPending(target))
    let providing = try ApplicationContext(RetryProvidingFactory())
    try providing.inject(into: target)
    #expect(try target.$gateway.get() === (try providing.object("gateway", as: Gateway.self)))
}

@Test func typeMismatchLeavesThePropertyPendingForARetry() throws {
    let wrong = try ApplicationContext(RetryWrongTypeFactory())
    let target = RetryTarget()
    let error = #expect(throws: ContextError.self) { try wrong.inject(into: target) }
    guard case .typeMismatch? = error else {
        Issue.record("expected typeMismatch, got \(String(describing: error))")
        return
    }
    #expect(isPending(target))
    let providing = try ApplicationContext(RetryProvidingFactory())
    try providing.inject(into: target)
    #expect(try target.$gateway.get() === (try providing.object("gateway", as: Gateway.self)))
}

@Test func failedAsyncInjectIntoLeavesThePropertyPendingSoARetryFillsIt() async throws {
    let context = try await ApplicationContext(RetryFactory())
    let target = RetryTarget()
    await #expect(throws: ContextError.self) { try await context.inject(into: target) }
    #expect(isPending(target), "the failed injection marked the property as done")
    try await context.inject(into: target)
    let gateway: Gateway = try await context.object("gateway")
    #expect(try await target.$gateway.get() === gateway)
}

@Test func failedFirstReadOfALazyPropertyIsRetriedOnTheNextRead() throws {
    let context = try ApplicationContext(RetryFactory())
    let target = RetryLazy()
    try context.inject(into: target)
    #expect(throws: ContextError.self) { try target.$lazyGateway.get() }
    #expect(try target.$lazyGateway.get() === (try context.object("gateway", as: Gateway.self)))
}

private final class RetryWithDefault {
    @Inject var gateway: Gateway = Gateway()
}

private final class RetryOptional {
    @Inject var gateway: Gateway?
}

@Test func failedInjectionOfAPropertyWithADefaultThrowsAndLeavesItForTheRetry() throws {
    // The default is for a context that has no "gateway"; this one has it, and making it failed.
    let context = try ApplicationContext(RetryFactory())
    let target = RetryWithDefault()
    let fallback = target.gateway
    #expect(throws: ContextError.self) { try context.inject(into: target) }
    try context.inject(into: target)
    let gateway: Gateway = try context.object("gateway")
    #expect(target.gateway === gateway)
    #expect(target.gateway !== fallback)
}

@Test func failedInjectionOfAnOptionalPropertyThrowsAndLeavesItForTheRetry() throws {
    let context = try ApplicationContext(RetryFactory())
    let target = RetryOptional()
    #expect(throws: ContextError.self) { try context.inject(into: target) }
    try context.inject(into: target)
    #expect(target.gateway === (try context.object("gateway", as: Gateway.self)))
}

@Test func neverInjectedErrorNamesThePropertyAndHowToInjectIt() {
    let error = #expect(throws: ContextError.self) { _ = try RetryTarget().$gateway.get() }
    guard case let .neverInjected(property, declaredAt)? = error else {
        Issue.record("expected neverInjected, got \(String(describing: error))")
        return
    }
    #expect(property == "gateway")
    #expect(declaredAt.hasPrefix("TrellisTests/InjectErrorTests.swift:"))
    let message = error?.description ?? ""
    #expect(message.contains("@Inject property 'gateway' declared at TrellisTests/InjectErrorTests.swift:"))
    #expect(message.contains("setDefault") && message.contains("withCurrent") && message.contains("inject(into:"))
}
