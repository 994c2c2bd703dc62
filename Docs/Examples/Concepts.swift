// Support for the code of Docs/Concepts.md, checked by .ci/check-docs: the app of Getting
// started, which the page's examples use: an eager "clock", a "mailer" with the alias
// "mailService", a "request" prototype, and a factory for a child context.
import Trellis

final class SystemClock: Sendable {
    func now() -> String { "09:41" }
}

protocol Mailer: AnyObject, Sendable {
    func send(_ text: String)
}

final class SMTPMailer: Mailer {
    let clock: SystemClock
    init(clock: SystemClock = SystemClock()) { self.clock = clock }
    func send(_ text: String) { print("[\(clock.now())] \(text)") }
}

final class Request: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { SystemClock() }
        createSingleton("mailer") { r in SMTPMailer(clock: try r.object("clock")) as any Mailer }
        aliases(for: "mailer", "mailService")
        createPrototype("request") { r in Request(mailer: try r.object("mailer")) }
    }
}

final class CheckoutViewModel: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
}

struct ScreenFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("viewModel") { r in CheckoutViewModel(mailer: try r.object("mailService")) }
    }
}
