import Foundation
import Testing
import Trellis
import TrellisTestSupport

// Docs/Injection.md, "Plain init and the current context": the process-wide default (`ApplicationContext.setDefault(_:)`), and what a plain-init
// object does when no context is current at all.
//
// Both need a process with no default, or one whose default only this test sets: `setDefault` is
// process-wide and tests run in parallel. So every test here is an exit test, whose body runs in
// a process of its own; a failed check stops that process with a message (`fatalError`), which
// fails the exit test's `.success` condition.

private final class DefaultMailer: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

private final class DefaultScreen {
    @Inject var mailer: DefaultMailer
    @Inject var analytics: DefaultMailer?
    @Inject var currency: String = "EUR"
}

/// Two required properties of one type, never injected.
private final class TwoMailers {
    @Inject var mailer: DefaultMailer
    @Inject var backupMailer: DefaultMailer
}

private struct DefaultFactory: ObjectFactory {
    let tag: String
    var contextName: String { "Default\(tag)" }
    var definitions: Definitions {
        createSingleton("mailer") { [tag] in DefaultMailer(tag) }
        createSingleton("currency") { [tag] in "currency-\(tag)" }
    }
}

private func startDefault(_ tag: String) -> ApplicationContext {
    do {
        return try ApplicationContext(DefaultFactory(tag: tag))
    } catch {
        fatalError("could not start \(tag): \(error)")
    }
}

/// Stops the exit test's process with `message` unless `condition` holds.
private func check(_ condition: Bool, _ message: @autoclosure () -> String, line: UInt = #line) {
    if !condition { fatalError("check failed (line \(line)): \(message())") }
}

private func mailerTag(of screen: DefaultScreen) -> String? {
    (try? screen.$mailer.get())?.tag
}

/// The error `$mailer.get()` throws for `screen`, or `nil`.
private func mailerError(of screen: DefaultScreen) -> ContextError? {
    do throws(ContextError) {
        _ = try screen.$mailer.get()
        return nil
    } catch {
        return error
    }
}

@Suite struct CurrentContextDefaultTests {
    // MARK: No current context

    @Test func readingANeverInjectedPropertyWithNoCurrentContextStopsNamingSetDefaultAndWithCurrent() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DefaultScreen().mailer
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("'mailer'"))
        #expect(stderr.contains("setDefault"))
        #expect(stderr.contains("withCurrent"))
        #expect(stderr.contains("inject(into:"))
        #expect(stderr.contains("CurrentContextDefaultTests.swift:"))
    }

    @Test func readingANeverInjectedPropertyStopsNamingThatPropertyAmongOthersOfItsType() async throws {
        // The read learns its property's name from the owner's fields, without its key path
        // (Docs/Injection.md, "How a property learns its name").
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TwoMailers().backupMailer
        }
        let stderr = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("'backupMailer'"))
        #expect(!stderr.contains("'mailer'"))
    }

    @Test func withNoCurrentContextGetThrowsNeverInjectedNamingSetDefaultAndWithCurrent() async {
        await #expect(processExitsWith: .success) {
            check(ApplicationContext.current == nil, "a fresh process has no current context")
            let screen = DefaultScreen()
            let error = mailerError(of: screen)
            guard case .neverInjected? = error else { fatalError("expected neverInjected, got \(String(describing: error))") }
            let description = error?.description ?? ""
            check(description.contains("setDefault"), description)
            check(description.contains("withCurrent"), description)
            check(description.contains("CurrentContextDefaultTests.swift:"), description)
            // The optional and the defaulted property read as before.
            check(screen.analytics == nil, "optional")
            check(screen.currency == "EUR", "default value")
        }
    }

    @Test func withNoCurrentContextInjectIntoStillFillsAPlainInitObject() async {
        await #expect(processExitsWith: .success) {
            let app = startDefault("A")
            let screen = DefaultScreen()
            do { try app.inject(into: screen) } catch { fatalError("inject(into:) threw \(error)") }
            check(screen.mailer.tag == "A", "injected by inject(into:)")
            check(screen.currency == "currency-A", "the default value replaced")
        }
    }

    // MARK: The default

    @Test func setDefaultMakesTheContextCurrentEverywhere() async {
        await #expect(processExitsWith: .success) {
            let app = startDefault("A")
            ApplicationContext.setDefault(app)
            check(ApplicationContext.current === app, "current is the default")
            check(mailerTag(of: DefaultScreen()) == "A", "a plain-init object resolves from the default")
            check(DefaultScreen().currency == "currency-A", "a defaulted property resolves from the default")
            let detached = await Task.detached { (ApplicationContext.current === app, mailerTag(of: DefaultScreen())) }.value
            check(detached.0 && detached.1 == "A", "a detached task sees the default")
            let onThread = Guarded<String?>(nil)
            check(ConcurrencyThreads.run(1) { _ in
                let tag = ApplicationContext.current === app ? mailerTag(of: DefaultScreen()) : "wrong current"
                onThread.withLock { $0 = tag }
            }, "thread finished")
            check(onThread.value == "A", "another thread sees the default")
        }
    }

    @Test func thePlainReadResolvesFromTheDefault() async {
        await #expect(processExitsWith: .success) {
            ApplicationContext.setDefault(startDefault("A"))
            let screen = DefaultScreen()
            check(screen.mailer.tag == "A", "plain read")
            check(screen.mailer === screen.mailer, "kept")
        }
    }

    @Test func setDefaultNilClearsTheDefault() async {
        await #expect(processExitsWith: .success) {
            let app = startDefault("A")
            ApplicationContext.setDefault(app)
            ApplicationContext.setDefault(nil)
            check(ApplicationContext.current == nil, "cleared")
            guard case .neverInjected? = mailerError(of: DefaultScreen()) else { fatalError("expected neverInjected after setDefault(nil)") }
        }
    }

    @Test func afterSetDefaultNilAPlainReadStopsAgain() async {
        await #expect(processExitsWith: .failure) {
            ApplicationContext.setDefault(startDefault("A"))
            ApplicationContext.setDefault(nil)
            _ = DefaultScreen().mailer
        }
    }

    @Test func setDefaultNilReleasesTheDefault() async {
        await #expect(processExitsWith: .success) {
            weak var released: ApplicationContext?
            do {
                let app = startDefault("A")
                released = app
                ApplicationContext.setDefault(app)
            }
            check(released != nil, "the default is kept alive while it is the default")
            ApplicationContext.setDefault(nil)
            check(released == nil, "setDefault(nil) lets it go")
        }
    }

    @Test func aSecondSetDefaultReplacesTheFirst() async {
        await #expect(processExitsWith: .success) {
            let a = startDefault("A")
            let b = startDefault("B")
            ApplicationContext.setDefault(a)
            ApplicationContext.setDefault(b)
            check(ApplicationContext.current === b, "replaced")
            check(mailerTag(of: DefaultScreen()) == "B", "resolves from the new default")
        }
    }

    @Test func anObjectMadeUnderADefaultKeepsThatContextWhenTheDefaultChanges() async {
        await #expect(processExitsWith: .success) {
            let a = startDefault("A")
            let b = startDefault("B")
            ApplicationContext.setDefault(a)
            let madeUnderA = DefaultScreen()
            ApplicationContext.setDefault(b)
            check(mailerTag(of: madeUnderA) == "A", "still a's after the default changed")
            ApplicationContext.setDefault(nil)
            check(mailerTag(of: madeUnderA) == "A", "still a's after the default was cleared")
        }
    }

    @Test func anObjectMadeBeforeTheDefaultWasSetIsNotResolvedFromIt() async {
        await #expect(processExitsWith: .success) {
            let early = DefaultScreen()
            ApplicationContext.setDefault(startDefault("A"))
            guard case .neverInjected? = mailerError(of: early) else { fatalError("an object made with no current context stays uninjected") }
        }
    }

    @Test func aTaskLocalBindingWinsOverTheDefaultAndTheDefaultIsBackAfter() async {
        await #expect(processExitsWith: .success) {
            let a = startDefault("A")
            let b = startDefault("B")
            ApplicationContext.setDefault(a)
            let inside = Sync.withCurrent(b) { (ApplicationContext.current === b, mailerTag(of: DefaultScreen())) }
            check(inside.0 && inside.1 == "B", "the binding wins")
            let insideAsync = await b.withCurrent { () async -> String? in
                await Task.yield()
                return mailerTag(of: DefaultScreen())
            }
            check(insideAsync == "B", "the async binding wins")
            check(ApplicationContext.current === a, "the default is current again")
            check(mailerTag(of: DefaultScreen()) == "A", "and resolves")
        }
    }

    @Test func aDetachedTaskInsideABindingSeesTheDefaultNotTheBinding() async {
        await #expect(processExitsWith: .success) {
            let a = startDefault("A")
            let b = startDefault("B")
            ApplicationContext.setDefault(a)
            let tag = await b.withCurrent { () async -> String? in
                await Task.detached { mailerTag(of: DefaultScreen()) }.value
            }
            check(tag == "A", "a detached task sees the default, got \(String(describing: tag))")
        }
    }

    @Test func aDetachedTaskWithNoDefaultSeesNoContext() async {
        await #expect(processExitsWith: .success) {
            let b = startDefault("B")
            let result = await b.withCurrent { () async -> (Bool, ContextError?) in
                await Task.detached { (ApplicationContext.current == nil, mailerError(of: DefaultScreen())) }.value
            }
            check(result.0, "no current context in a detached task")
            guard case .neverInjected? = result.1 else { fatalError("expected neverInjected in a detached task, got \(String(describing: result.1))") }
        }
    }

    @Test func settingAndReadingTheDefaultFromManyThreadsIsSafe() async {
        // Under the thread sanitizer a race here stops the process, failing the exit test.
        await #expect(processExitsWith: .success) {
            let contexts = ["A", "B", "C", "D"].map(startDefault)
            let rounds = 500
            let finished = ConcurrencyThreads.run(4) { index in
                for round in 0..<rounds {
                    if index < 2 {
                        ApplicationContext.setDefault(round % 7 == 0 ? nil : contexts[(index + round) % contexts.count])
                    } else {
                        let screen = DefaultScreen()
                        if let current = ApplicationContext.current {
                            check(contexts.contains { $0 === current }, "current is one of the defaults")
                        }
                        _ = mailerTag(of: screen)
                    }
                }
            }
            check(finished, "threads finished")
        }
    }
}
