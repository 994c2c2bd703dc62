// Support for the code of Docs/Injection.md, checked by .ci/check-docs: the collaborators the
// page's classes are injected with.
final class Clock: Sendable {
    func now() -> String { "09:41" }
}

protocol Mailer: AnyObject, Sendable {
    func send(_ text: String)
}

final class SMTPMailer: Mailer {
    func send(_ text: String) { print("SMTP: \(text)") }
}

final class ConsoleMailer: Mailer {
    func send(_ text: String) { print(text) }
}

protocol PaymentGateway: AnyObject, Sendable {
    var name: String { get }
}

final class StripeGateway: PaymentGateway {
    let name = "Stripe"
}

final class Analytics: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

final class ReportBuilder: Sendable {
    func build() -> String { "report of 3 orders" }
}
