// Prints the dependency graph of a small app (the QuickStart's objects) in Graphviz DOT, or in
// Mermaid with `--mermaid`. The graph is complete because it comes from a validation report:
// validating makes every definition once, so every dependency is recorded.
//
//   swift run GraphExport > /tmp/g.dot && dot -Tpng /tmp/g.dot -o Docs/quickstart-graph.png
//   swift run GraphExport --mermaid
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
    @Inject var mailer: any Mailer            // an injected property: a labelled edge
    let request: Request
    init(request: Request) { self.request = request }
}

// MARK: - The app context and a child context for one screen

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("clock") { Clock() }
        createSingleton("mailer") { r in SMTPMailer(clock: try r.object("clock")) as any Mailer }
        aliases(for: "mailer", "mailService")
        createPrototype("request") { r in Request(mailer: try r.object("mailService")) }
    }
}

struct ScreenFactory: ObjectFactory {
    var definitions: Definitions {
        createPrototype("checkout") { r in CheckoutScreen(request: try r.object("request")) }
    }
}

// MARK: - Validate, then print the graph

let app = try ApplicationContext(AppFactory())
let appReport = app.validate()
precondition(appReport.isValid, "\(appReport)")

// Validating the screen factory against the app makes the app's objects the screen needs, so the
// graph shows the edges of both contexts.
let report = ApplicationContext.validate(ScreenFactory(), parent: app)
precondition(report.isValid, "\(report)")

let format: GraphFormat = CommandLine.arguments.contains("--mermaid") ? .mermaid : .dot
print(report.graph(format), terminator: "")
