// The current context: objects made with their plain `init` get their `@Inject` properties from
// it (AppleGuice's `[[MyClass alloc] init]`). The app context is set as the process-wide default
// at launch; each request binds a child context of its own with `withCurrent`, so requests
// handled concurrently each see their own request objects. Shows the use of an injected property
// inside `init`, a preset left alone, and what a detached task sees.
// Run it with `swift run CurrentContext`.
import Synchronization
import Trellis

// MARK: - App-wide objects

final class Templates: Sendable {
    func greeting(for user: String) -> String { "Hello, \(user)!" }
}

protocol Mailer: Sendable {
    func send(_ text: String, to user: String) -> String
}

final class SMTPMailer: Mailer {
    func send(_ text: String, to user: String) -> String { "mail to \(user): \(text)" }
}

final class AuditLog: Disposable, Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    func dispose() { print("  AuditLog disposed with \(entries.withLock { $0.count }) entries") }
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("templates") { Templates() }
        createSingleton("mailer") { SMTPMailer() as any Mailer }
        createEagerSingleton("audit") { AuditLog() }
    }
}

// MARK: - Per-request objects, in a child context per request

struct Request: Sendable {
    let id: Int
    let user: String
}

struct RequestFactory: ObjectFactory {
    let request: Request
    var contextName: String { "request \(request.id)" }
    var definitions: Definitions {
        createSingleton("request") { [request] in request }
    }
}

// MARK: - Classes made with their plain init

/// Made with `WelcomeScreen()` anywhere: its properties resolve from the current context on first
/// read, even inside its own `init`.
final class WelcomeScreen {
    @Inject var templates: Templates
    @Inject var mailer: any Mailer
    private(set) var title = ""

    init(user: String) {
        title = templates.greeting(for: user)       // an injected property, used in init
    }
}

/// Made per request with its plain init: "request" comes from the request's child context,
/// "mailer" and "audit" from the app context above it.
final class RequestHandler {
    @Inject var request: Request
    @Inject var mailer: any Mailer
    @Inject var audit: AuditLog

    func handle() -> String {
        audit.record("request \(request.id)")
        return "#\(request.id): " + mailer.send("your order is on its way", to: request.user)
    }
}

/// Records what it would send instead of sending it.
final class OutboxMailer: Mailer {
    func send(_ text: String, to user: String) -> String { "(kept in the outbox for \(user))" }
}

// MARK: - Launch

let app = try ApplicationContext(AppFactory())
ApplicationContext.setDefault(app)                      // once, at launch

let screen = WelcomeScreen(user: "Ada")                 // plain init: resolved from the default
print("title: \(screen.title)")
print("current is the app context: \(ApplicationContext.current === app)")

let preset = WelcomeScreen(user: "Grace")
preset.mailer = OutboxMailer()                          // set before the first read: kept
print("preset: \(preset.mailer.send("hi", to: "Grace"))")

// MARK: - Requests, handled concurrently, each in its own child context

func serve(_ request: Request) async throws -> String {
    let scope = try await ApplicationContext(RequestFactory(request: request), parent: app)
    let response = await scope.withCurrent {
        await Task.yield()                              // other requests run in between
        return RequestHandler().handle()                // plain init: this request's context
    }
    try await scope.close()                             // the request ends
    return response
}

let responses = try await withThrowingTaskGroup(of: String.self) { group in
    for id in 1...4 {
        group.addTask { try await serve(Request(id: id, user: "user\(id)")) }
    }
    var responses: [String] = []
    for try await response in group { responses.append(response) }
    return responses
}
for response in responses.sorted() { print(response) }

// A child task inherits the binding; a detached task does not, and sees the default.
let late = try ApplicationContext(RequestFactory(request: Request(id: 99, user: "late")), parent: app)
let seen = await late.withCurrent {
    async let child = ApplicationContext.current?.name
    let detached = await Task.detached { ApplicationContext.current?.name }.value
    return (await child, detached)
}
try late.close()
print("a child task sees '\(seen.0 ?? "nothing")', a detached task sees '\(seen.1 ?? "nothing")'")

// MARK: - Shutdown

ApplicationContext.setDefault(nil)                      // plain-init objects made now get nothing
print("after setDefault(nil), current is nil: \(ApplicationContext.current == nil)")
print("shutdown:")
try app.close()
