import Synchronization
import Testing
import Trellis

/// A thread-safe count of how often something happened (objects made, calls received), shared by
/// the injection and lookup-by-type tests.
final class InjCounter: Sendable {
    private let storage = Atomic<Int>(0)

    init() {}

    func increment() { storage.wrappingAdd(1, ordering: .relaxed) }

    var value: Int { storage.load(ordering: .relaxed) }
}

private final class Mailer {
    let name: String
    init(_ name: String = "mailer") { self.name = name }
}

private protocol Clock: AnyObject { var name: String { get } }
private final class SystemClock: Clock { let name = "system" }
private final class FixedClock: Clock { let name = "fixed" }

// MARK: - Key from the property name, aliases, parents, explicit keys

private final class NamedHolder {
    @Inject var mailer: Mailer
}

private final class ExplicitAliasHolder {
    @Inject var mailService: Mailer
}

private final class DefaultAliasHolder {
    @Inject var clockworkMailer: Mailer     // key "ClockworkMailer", lowercase-first default alias
    @Inject var MAILER: Mailer              // key "mailer", uppercase default alias
}

private final class ExplicitKeyHolder {
    @Inject("paymentGateway") var payments: Mailer
}

private struct MailFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("mailer") }.aliases("mailService")
        createSingleton("ClockworkMailer") { Mailer("clockwork") }
        createSingleton("paymentGateway") { Mailer("payments") }
        createPrototype("named") { NamedHolder() }
        createPrototype("explicitAlias") { ExplicitAliasHolder() }
        createPrototype("defaultAlias") { DefaultAliasHolder() }
        createPrototype("explicitKey") { ExplicitKeyHolder() }
    }
}

@Test func injectKeyIsThePropertyName() throws {
    let context = try ApplicationContext(MailFactory())
    let holder = try context.object("named", as: NamedHolder.self)
    #expect(holder.mailer === (try context.object("mailer", as: Mailer.self)))
}

@Test func injectPropertyNamedByAnExplicitAliasFindsTheAliasedObject() throws {
    let context = try ApplicationContext(MailFactory())
    let holder = try context.object("explicitAlias", as: ExplicitAliasHolder.self)
    #expect(holder.mailService === (try context.object("mailer", as: Mailer.self)))
}

@Test func injectPropertyNamedByADefaultAliasFindsTheObject() throws {
    let context = try ApplicationContext(MailFactory())
    let holder = try context.object("defaultAlias", as: DefaultAliasHolder.self)
    #expect(holder.clockworkMailer.name == "clockwork")
    #expect(holder.MAILER === (try context.object("mailer", as: Mailer.self)))
}

@Test func injectWithAnExplicitKeyUsesThatKeyNotThePropertyName() throws {
    let context = try ApplicationContext(MailFactory())
    let holder = try context.object("explicitKey", as: ExplicitKeyHolder.self)
    #expect(holder.payments.name == "payments")
}

private struct MailParentFactory: ObjectFactory {
    var contextName: String { "MailParent" }
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("parent") }.aliases("mailService")
    }
}

private struct MailChildFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("named") { NamedHolder() }
        createPrototype("explicitAlias") { ExplicitAliasHolder() }
    }
}

@Test func injectFindsKeysAndAliasesThroughTheParentChain() throws {
    let parent = try ApplicationContext(MailParentFactory())
    let child = try ApplicationContext(MailChildFactory(), parent: parent)
    let parentMailer = try parent.object("mailer", as: Mailer.self)
    #expect(try child.object("named", as: NamedHolder.self).mailer === parentMailer)
    #expect(try child.object("explicitAlias", as: ExplicitAliasHolder.self).mailService === parentMailer)
}

private struct ShadowingParentFactory: ObjectFactory {
    var contextName: String { "ShadowParent" }
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("parent") }
        createSingleton("named") { NamedHolder() }
    }
}

private struct ShadowingChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("child") }
    }
}

@Test func parentSingletonFirstAskedThroughAChildIsInjectedFromTheParent() throws {
    let parent = try ApplicationContext(ShadowingParentFactory())
    let child = try ApplicationContext(ShadowingChildFactory(), parent: parent)
    let holder = try child.object("named", as: NamedHolder.self)
    #expect(holder.mailer.name == "parent")
}

// MARK: - Optionals and default values

private final class OptionalHolder {
    @Inject var analytics: Mailer?
}

private final class DefaultHolder {
    @Inject var clock: any Clock = SystemClock()
}

private struct BareFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("optional") { OptionalHolder() }
        createPrototype("defaulted") { DefaultHolder() }
    }
}

private struct FullFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("analytics") { Mailer("analytics") }
        createSingleton("clock") { () -> any Clock in FixedClock() }
        createPrototype("optional") { OptionalHolder() }
        createPrototype("defaulted") { DefaultHolder() }
    }
}

@Test func optionalInjectStaysNilWhenNoSuchKey() throws {
    let context = try ApplicationContext(BareFactory())
    #expect(try context.object("optional", as: OptionalHolder.self).analytics == nil)
}

@Test func optionalInjectIsSetWhenTheKeyExists() throws {
    let context = try ApplicationContext(FullFactory())
    let holder = try context.object("optional", as: OptionalHolder.self)
    #expect(holder.analytics === (try context.object("analytics", as: Mailer.self)))
}

@Test func defaultValueIsKeptWhenTheContextHasNoSuchKey() throws {
    let context = try ApplicationContext(BareFactory())
    #expect(try context.object("defaulted", as: DefaultHolder.self).clock.name == "system")
}

@Test func defaultValueIsReplacedWhenTheContextHasTheKey() throws {
    let context = try ApplicationContext(FullFactory())
    let holder = try context.object("defaulted", as: DefaultHolder.self)
    #expect(holder.clock.name == "fixed")
    #expect(holder.clock === (try context.object("clock", as: (any Clock).self)))
}

// MARK: - Superclasses, values set by the closure

private class BaseHolder {
    @Inject var mailer: Mailer
}

private final class DerivedHolder: BaseHolder {
    @Inject var analytics: Mailer
}

private final class PresetHolder {
    @Inject var mailer: Mailer
    @Inject var analytics: Mailer
}

private struct HierarchyFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("mailer") }
        createSingleton("analytics") { Mailer("analytics") }
        createPrototype("derived") { DerivedHolder() }
        createPrototype("preset") { () -> PresetHolder in
            let holder = PresetHolder()
            holder.mailer = Mailer("set by closure")
            return holder
        }
    }
}

@Test func superclassInjectPropertiesAreInjectedToo() throws {
    let context = try ApplicationContext(HierarchyFactory())
    let holder = try context.object("derived", as: DerivedHolder.self)
    #expect(holder.mailer.name == "mailer")
    #expect(holder.analytics.name == "analytics")
}

@Test func propertySetByTheCreationClosureIsLeftAlone() throws {
    let context = try ApplicationContext(HierarchyFactory())
    let holder = try context.object("preset", as: PresetHolder.self)
    #expect(holder.mailer.name == "set by closure")
    #expect(holder.analytics.name == "analytics")
}

// MARK: - Every scope is injected before the object is returned

private final class ScopeHolder {
    @Inject var dependency: Mailer?
}

private struct ScopesFactory: ObjectFactory {
    let dependencyMade: InjCounter
    var definitions: Definitions {
        createSingleton("dependency") { [dependencyMade] in
            dependencyMade.increment()
            return Mailer("dependency")
        }
        createEagerSingleton("eager") { ScopeHolder() }
        createSingleton("lazy") { ScopeHolder() }
        createPrototype("prototype") { ScopeHolder() }
    }
}

@Test func eagerSingletonIsInjectedWhenTheContextStarts() throws {
    let made = InjCounter()
    let context = try ApplicationContext(ScopesFactory(dependencyMade: made))
    #expect(made.value == 1)
    #expect(try context.object("eager", as: ScopeHolder.self).dependency?.name == "dependency")
}

@Test func lazySingletonIsInjectedBeforeItIsReturned() throws {
    let context = try ApplicationContext(ScopesFactory(dependencyMade: InjCounter()))
    let holder = try context.object("lazy", as: ScopeHolder.self)
    #expect(holder.dependency === (try context.object("dependency", as: Mailer.self)))
}

@Test func everyPrototypeInstanceIsInjectedBeforeItIsReturned() throws {
    let context = try ApplicationContext(ScopesFactory(dependencyMade: InjCounter()))
    let first = try context.object("prototype", as: ScopeHolder.self)
    let second = try context.object("prototype", as: ScopeHolder.self)
    #expect(first !== second)
    #expect(first.dependency != nil)
    #expect(second.dependency != nil)
}

// MARK: - Existentials of injectable classes

private protocol Service: AnyObject { var mailerName: String { get } }
private protocol AnyService { var mailerName: String { get } }

private final class InjectedService: Service, AnyService {
    @Inject var mailer: Mailer
    var mailerName: String { mailer.name }
}

private struct ExistentialFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("mailer") }
        createSingleton("classBound") { () -> any Service in InjectedService() }
        createPrototype("unbound") { () -> any AnyService in InjectedService() }
        createPrototype("erased") { () -> Any in InjectedService() }
    }
}

@Test func objectDeclaredAsAClassBoundExistentialIsInjected() throws {
    let context = try ApplicationContext(ExistentialFactory())
    #expect(try context.object("classBound", as: (any Service).self).mailerName == "mailer")
}

@Test func objectDeclaredAsAnUnboundExistentialIsInjected() throws {
    let context = try ApplicationContext(ExistentialFactory())
    #expect(try context.object("unbound", as: (any AnyService).self).mailerName == "mailer")
    #expect(try context.object("erased", as: InjectedService.self).mailerName == "mailer")
}

// MARK: - inject(into:)

private final class Screen {
    @Inject var mailer: Mailer
    @Inject var analytics: Mailer?
}

@Test func injectIntoFillsAnObjectMadeElsewhere() throws {
    let context = try ApplicationContext(HierarchyFactory())
    let screen = Screen()
    try context.inject(into: screen)
    #expect(screen.mailer === (try context.object("mailer", as: Mailer.self)))
    #expect(screen.analytics === (try context.object("analytics", as: Mailer.self)))
}

@Test func injectIntoLeavesValuesAlreadySetAlone() throws {
    let context = try ApplicationContext(HierarchyFactory())
    let screen = Screen()
    let preset = Mailer("set by test")
    screen.mailer = preset
    try context.inject(into: screen)
    #expect(screen.mailer === preset)
    #expect(screen.analytics?.name == "analytics")
}

@Test func injectIntoTwiceKeepsTheFirstInjection() throws {
    let first = try ApplicationContext(HierarchyFactory())
    let second = try ApplicationContext(HierarchyFactory())
    let screen = Screen()
    try first.inject(into: screen)
    try second.inject(into: screen)
    #expect(screen.mailer === (try first.object("mailer", as: Mailer.self)))
}

// MARK: - InjectionAware

private class AwareBase {
    @Inject var mailer: Mailer?
}

private final class AwareHolder: AwareBase, InjectionAware {
    @Inject var analytics: Mailer?
    var calls = 0
    var sawMailer = false
    var sawAnalytics = false
    var contextID: ObjectIdentifier?

    func didInject(from context: ApplicationContext) {
        calls += 1
        sawMailer = mailer != nil
        sawAnalytics = analytics != nil
        contextID = ObjectIdentifier(context)
    }
}

private struct AwareFactory: ObjectFactory {
    var contextName: String { "AwareParent" }
    var definitions: Definitions {
        createSingleton("mailer") { Mailer("mailer") }
        createSingleton("analytics") { Mailer("analytics") }
        createEagerSingleton("eager") { AwareHolder() }
        createSingleton("lazy") { AwareHolder() }
        createPrototype("prototype") { AwareHolder() }
    }
}

private struct AwareChildFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("childOwn") { AwareHolder() }
    }
}

@Test func didInjectIsCalledOnceForASingletonAfterAllPropertiesAreInjected() throws {
    let context = try ApplicationContext(AwareFactory())
    for key in ["eager", "lazy"] {
        _ = try context.object(key, as: AwareHolder.self)
        let holder = try context.object(key, as: AwareHolder.self)
        #expect(holder.calls == 1, "\(key)")
        #expect(holder.sawMailer, "\(key): superclass property readable in didInject")
        #expect(holder.sawAnalytics, "\(key): own property readable in didInject")
        #expect(holder.contextID == ObjectIdentifier(context), "\(key)")
    }
}

@Test func didInjectIsCalledOnceForEveryPrototypeInstance() throws {
    let context = try ApplicationContext(AwareFactory())
    let first = try context.object("prototype", as: AwareHolder.self)
    let second = try context.object("prototype", as: AwareHolder.self)
    #expect(first.calls == 1)
    #expect(second.calls == 1)
    #expect(first.sawMailer && first.sawAnalytics)
}

@Test func didInjectIsCalledByInjectInto() throws {
    let context = try ApplicationContext(AwareFactory())
    let holder = AwareHolder()
    try context.inject(into: holder)
    #expect(holder.calls == 1)
    #expect(holder.sawMailer && holder.sawAnalytics)
    #expect(holder.contextID == ObjectIdentifier(context))
}

/// Docs/Injection.md: once per injection, so once more for each `inject(into:)`.
@Test func didInjectIsCalledAgainByEachInjectIntoOfAnInjectedObject() throws {
    let context = try ApplicationContext(AwareFactory())
    let holder = try context.object("lazy", as: AwareHolder.self)
    try context.inject(into: holder)
    #expect(holder.calls == 2)
}

@Test func didInjectGetsTheContextThatMadeTheObject() throws {
    let parent = try ApplicationContext(AwareFactory())
    let child = try ApplicationContext(AwareChildFactory(), parent: parent)
    let parentsObject = try child.object("lazy", as: AwareHolder.self)
    let childsObject = try child.object("childOwn", as: AwareHolder.self)
    #expect(parentsObject.contextID == ObjectIdentifier(parent))
    #expect(childsObject.contextID == ObjectIdentifier(child))
    #expect(childsObject.sawMailer, "the child's object is injected through the parent chain")
}

// MARK: - Types with no @Inject properties

private final class EmptyClass {}

private final class PlainClass {
    var name = "unset"
    let number: Int
    init(number: Int) { self.number = number }
}

private struct PlainStruct: Equatable {
    var name: String
    var number: Int
}

private protocol Shape { var sides: Int { get } }
private struct Square: Shape { let sides = 4 }
private final class Triangle: Shape { let sides = 3 }

private struct PlainFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("empty") { EmptyClass() }
        createSingleton("plain") { () -> PlainClass in
            let plain = PlainClass(number: 7)
            plain.name = "set"
            return plain
        }
        createPrototype("plainPrototype") { PlainClass(number: 8) }
        createEagerSingleton("struct") { PlainStruct(name: "s", number: 1) }
        createPrototype("structPrototype") { PlainStruct(name: "p", number: 2) }
        createSingleton("square") { () -> any Shape in Square() }
        createPrototype("triangle") { () -> any Shape in Triangle() }
        createPrototype("closure") { () -> @Sendable (Int) -> Int in { $0 * 2 } }
    }
}

@Test func classesWithoutInjectPropertiesAreReturnedUnchanged() throws {
    let context = try ApplicationContext(PlainFactory())
    let empty = try context.object("empty", as: EmptyClass.self)
    #expect(try context.object("empty", as: EmptyClass.self) === empty)
    let plain = try context.object("plain", as: PlainClass.self)
    #expect(plain.name == "set")
    #expect(plain.number == 7)
    #expect(try context.object("plainPrototype", as: PlainClass.self).number == 8)
    #expect(try context.object("plainPrototype", as: PlainClass.self).name == "unset")
}

@Test func structsWithoutInjectPropertiesAreReturnedUnchanged() throws {
    let context = try ApplicationContext(PlainFactory())
    #expect(try context.object("struct", as: PlainStruct.self) == PlainStruct(name: "s", number: 1))
    #expect(try context.object("structPrototype", as: PlainStruct.self) == PlainStruct(name: "p", number: 2))
}

@Test func existentialsAndClosuresWithoutInjectPropertiesAreReturnedUnchanged() throws {
    let context = try ApplicationContext(PlainFactory())
    #expect(try context.object("square", as: (any Shape).self).sides == 4)
    #expect(try context.object("triangle", as: (any Shape).self).sides == 3)
    #expect(try context.object("closure", as: (@Sendable (Int) -> Int).self)(21) == 42)
}

@Test func injectIntoAClassWithoutInjectPropertiesDoesNothing() throws {
    let context = try ApplicationContext(PlainFactory())
    let plain = PlainClass(number: 3)
    try context.inject(into: plain)
    try context.inject(into: EmptyClass())
    #expect(plain.name == "unset")
    #expect(plain.number == 3)
}

/// A raw identifier (Docs/Injection.md, "Keys"): reflection spells its storage label in
/// backticks, which are not part of the key.
private final class RawIdentifierScreen {
    @Inject var `db.url`: String
    @Inject var `retry limit`: Int = 1
}


private struct RawIdentifierFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("db.url") { "postgres://db" }
        createSingleton("retry limit") { 5 }
        createPrototype("screen") { RawIdentifierScreen() }
    }
}

@Test func aRawIdentifierPropertysKeyIsItsNameWithoutBackticks() throws {
    let context = try ApplicationContext(RawIdentifierFactory())
    let screen = try context.object("screen", as: RawIdentifierScreen.self)
    #expect(screen.`db.url` == "postgres://db")
    #expect(screen.`retry limit` == 5)
    #expect(ApplicationContext.validate(RawIdentifierFactory()).problems.isEmpty)
}
