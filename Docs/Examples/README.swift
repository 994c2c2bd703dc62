// Support for the code of README.md, checked by .ci/check-docs: the app types the README uses
// without showing them, as an app would declare them.
final class SystemClock: Sendable {
    func now() -> String { "09:41" }
}

protocol Mailer: AnyObject, Sendable {
    func send(_ text: String)
}

final class SMTPMailer: Mailer {
    let clock: SystemClock
    init(clock: SystemClock) { self.clock = clock }
    func send(_ text: String) { print("[\(clock.now())] \(text)") }
}

final class Request: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
}

final class CheckoutScreen: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
    func confirm() { mailer.send("order confirmed") }
}

protocol PaymentGateway: AnyObject, Sendable {}

final class Analytics: Sendable {}

final class ReportBuilder: Sendable {}
