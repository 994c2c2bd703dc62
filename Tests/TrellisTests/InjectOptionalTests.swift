import Synchronization
import Testing
import Trellis

// Docs/Injection.md, "The forms of `@Inject`": an optional property (`@Inject var analytics:
// Analytics?`) gets the object its key names, whatever the definition is declared as, made once
// for it; `nil` only when nothing answers to the key, and `typeMismatch` when the object is of
// another type.

private final class OptionalMailer {}
private class OptionalStore {}
private final class OptionalSQLStore: OptionalStore {}
private final class OptionalReport {}
private struct OptionalSettings { var retries: Int }

/// Counts what a definition's closure made.
private final class MadeCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func made<T>(_ object: T) -> T {
        count.add(1, ordering: .relaxed)
        return object
    }
}

private final class OptionalHolder {
    @Inject var mailer: OptionalMailer?
    @Inject var store: OptionalStore?
    @Inject var report: OptionalReport?
    @Inject var settings: OptionalSettings?
    @Inject var absent: OptionalMailer?
}

private final class WronglyTypedHolder {
    @Inject("report") var report: OptionalMailer?
}

/// `mailer` a singleton, `store` a singleton declared as its subclass, `report` a prototype,
/// `settings` a struct singleton, each counted.
private struct OptionalTargetsFactory: ObjectFactory {
    let mailers = MadeCounter(), stores = MadeCounter(), reports = MadeCounter()
    var definitions: Definitions {
        createSingleton("mailer") { [mailers] in mailers.made(OptionalMailer()) }
        createSingleton("store") { [stores] in stores.made(OptionalSQLStore()) }
        createPrototype("report") { [reports] in reports.made(OptionalReport()) }
        createSingleton("settings") { OptionalSettings(retries: 3) }
        createPrototype("holder") { OptionalHolder() }
        createPrototype("wronglyTyped") { WronglyTypedHolder() }
    }
}

/// Made outside the context and injected by name (`inject(into:)` takes no route).
private final class OutsideOptionalHolder {
    @Inject var mailer: OptionalMailer?
    @Inject var settings: OptionalSettings?
}

/// A closure asking for made singletons as optionals of their declared types.
private final class OptionalAsker {
    let mailer: OptionalMailer?
    let settings: OptionalSettings?
    init(mailer: OptionalMailer?, settings: OptionalSettings?) {
        self.mailer = mailer
        self.settings = settings
    }
}

private struct OptionalAskerFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("mailer") { OptionalMailer() }
        createSingleton("settings") { OptionalSettings(retries: 4) }
        createPrototype("asker") { r in
            OptionalAsker(mailer: try r.object("mailer", as: OptionalMailer?.self), settings: try r.object("settings", as: OptionalSettings?.self))
        }
    }
}

private struct OptionalHolderChild: ObjectFactory {
    var definitions: Definitions {
        createPrototype("childHolder") { OptionalHolder() }
    }
}

@Suite struct InjectOptionalTests {
    @Test func optionalPropertiesGetTheObjectsTheirKeysNameEachMadeOnce() throws {
        let factory = OptionalTargetsFactory()
        let context = try ApplicationContext(factory)
        let holder = try context.object("holder", as: OptionalHolder.self)
        #expect(holder.mailer === (try context.object("mailer", as: OptionalMailer.self)))
        #expect(holder.store === (try context.object("store", as: OptionalSQLStore.self)))
        #expect(holder.report != nil)
        #expect(holder.settings?.retries == 3)
        #expect(holder.absent == nil)
        #expect(factory.mailers.value == 1)
        #expect(factory.stores.value == 1)
        #expect(factory.reports.value == 1)
    }

    @Test func optionalPropertiesOfMadeSingletonsInAParentGetThem() throws {
        let factory = OptionalTargetsFactory()
        let app = try ApplicationContext(factory)
        let mailer = try app.object("mailer", as: OptionalMailer.self)
        let store = try app.object("store", as: OptionalSQLStore.self)
        for _ in 0..<3 {
            let child = try ApplicationContext(OptionalHolderChild(), parent: app)
            let holder = try child.object("childHolder", as: OptionalHolder.self)
            #expect(holder.mailer === mailer)
            #expect(holder.store === store)
            #expect(holder.settings?.retries == 3)
            #expect(holder.absent == nil)
        }
        #expect(factory.mailers.value == 1)
        #expect(factory.reports.value == 3)
    }

    @Test func anOptionalPropertyOfAnotherTypeThanItsObjectIsATypeMismatchAfterOneMake() throws {
        let factory = OptionalTargetsFactory()
        let context = try ApplicationContext(factory)
        let error = #expect(throws: ContextError.self) {
            _ = try context.object("wronglyTyped", as: WronglyTypedHolder.self)
        }
        guard case let .typeMismatch(key, _, _, _)? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(key == "report")
        #expect(factory.reports.value == 1)
    }

    // Docs/GettingStarted.md, "Looking objects up": a lookup as an optional of the declared type
    // gets the object, whoever asks — the context, a closure's resolver, a property filled by name.
    @Test func aMadeSingletonAskedForAsAnOptionalOfItsTypeIsTheSameObjectForEveryKindOfLookup() throws {
        let context = try ApplicationContext(OptionalAskerFactory())
        let mailer = try context.object("mailer", as: OptionalMailer.self)
        _ = try context.object("settings", as: OptionalSettings.self)
        #expect(try context.object("mailer", as: OptionalMailer?.self) === mailer)
        #expect(try context.object("settings", as: OptionalSettings?.self)?.retries == 4)
        let asker = try context.object("asker", as: OptionalAsker.self)
        #expect(asker.mailer === mailer)
        #expect(asker.settings?.retries == 4)
        let outside = OutsideOptionalHolder()
        try context.inject(into: outside)
        #expect(outside.mailer === mailer)
        #expect(outside.settings?.retries == 4)
    }
}
