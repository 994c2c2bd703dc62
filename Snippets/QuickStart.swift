// Trellis in one screen: a factory split over extensions, a parent and a child context,
// lookups by key and alias, a prototype, an @Inject property and an error message.
// Run it with `swift run QuickStart`.
import Trellis

// MARK: - The objects of a small app

final class Clock: Sendable {
    func now() -> String { "09:41" }
}

protocol Mailer: AnyObject, Sendable {
    func send(_ text: String) -> String
}

final class SMTPMailer: Mailer {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
    func send(_ text: String) -> String { "[\(clock.now())] sent '\(text)'" }
}

final class Request: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
}

final class CheckoutScreen {
    @Inject var mailer: any Mailer            // filled by the context: key "mailer"
    func confirm() -> String { mailer.send("order confirmed") }
}

// MARK: - The app factory, one group per extension (each could live in its own file)

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        general
        services
    }
}

extension AppFactory {
    @DefinitionsBuilder var general: Definitions {
        createEagerSingleton("clock") { Clock() }
    }
}

extension AppFactory {
    @DefinitionsBuilder var services: Definitions {
        createSingleton("mailer") { r in SMTPMailer(clock: try r.object("clock")) as any Mailer }
        aliases(for: "mailer", "mailService")
        createPrototype("request") { r in Request(mailer: try r.object("mailer")) }
    }
}

// MARK: - A child context for one screen: it sees everything its parent defines

struct ScreenFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("CheckoutScreen") { CheckoutScreen() }
    }
}

func show(_ label: String, _ values: Any...) {
    let padded = label + String(repeating: " ", count: max(1, 22 - label.count))
    print(padded + values.map { "\($0)" }.joined(separator: " "))
}

let app = try ApplicationContext(AppFactory())
let screen = try ApplicationContext(ScreenFactory(), parent: app)

let mailer: any Mailer = try app.object("mailer")
show("by key", "'mailer' sends:", mailer.send("hello"))
show("by explicit alias", "'mailService' is 'mailer':", try app.object("mailService", as: (any Mailer).self) === mailer)
show("by default alias", "'MAILER' is 'mailer':", try app.object("MAILER", as: (any Mailer).self) === mailer)
let checkout: CheckoutScreen = try screen.object("checkoutScreen")
show("by default alias", "'checkoutScreen' finds 'CheckoutScreen', a", type(of: checkout))
show("through the parent", "the screen's 'mailService' is the app's:", try screen.object("mailService", as: (any Mailer).self) === mailer)

let first: Request = try app.object("request")
let second: Request = try app.object("request")
show("prototype", "two 'request's are different objects:", first !== second, "- with one mailer:", first.mailer === second.mailer)
show("@Inject", "checkout.mailer is 'mailer':", checkout.mailer === mailer, "-", checkout.confirm())

do {
    _ = try screen.object("payments", as: (any Mailer).self)
} catch {
    show("error", error.description)
}
