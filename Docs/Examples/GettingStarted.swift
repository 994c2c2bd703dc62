// Support for the code of Docs/GettingStarted.md, checked by .ci/check-docs: the app types the
// guide uses without showing them. It completes the objects of section 2 (the block named
// `objects`: SystemClock, Mailer, SMTPMailer, Request), which every block using this file
// also includes.
import Trellis

final class APIClient: Sendable {
    let baseURL: String
    init(baseURL: String) { self.baseURL = baseURL }
}

enum Environment: Sendable {
    case production, development
}

final class Settings: Sendable {
    let environment: Environment
    init(environment: Environment) { self.environment = environment }
}

final class ConsoleMailer: Mailer {
    func send(_ text: String) { print(text) }
}

final class RegionStore: Sendable {
    let region: String
    init(region: String) { self.region = region }
}

final class Logger: Sendable {}

/// A factory of another module, e.g. a shared logging package.
struct LoggingFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("logger") { Logger() }
    }
}

final class CheckoutViewModel: Sendable {
    let title: String
    let mailer: any Mailer
    init(title: String, mailer: any Mailer) {
        self.title = title
        self.mailer = mailer
    }
}
