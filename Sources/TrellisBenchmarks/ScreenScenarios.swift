#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Trellis

// `screen` (Docs/AppTarget.md): an app's screen as Reliant's pattern has it, a child context
// per screen, built, used and closed from the main actor. `project` uses the async forms
// (`try await app.withChild(…)`, async lookups, the awaited close), `sync` the synchronous ones
// in the same rounds; the target is `project` ≤ 2 × `sync`.

@MainActor final class NoteEditor {
    let undo: ScreenUndo
    let config: Config
    init(undo: ScreenUndo, config: Config) {
        self.undo = undo
        self.config = config
    }
}

/// Disposed when the screen closes, as an undo history flushing itself would be.
@MainActor final class ScreenUndo: @MainActor Disposable {
    var flushes = 0
    func dispose() { flushes += 1 }
}

struct ScreenFactory: ObjectFactory {
    var definitions: Definitions {
        createMainActorSingleton("undo") { ScreenUndo() }
        createMainActorSingleton("editor") { r in NoteEditor(undo: try r.object("undo"), config: try r.object("config")) }
        createPrototype("unitOfWork") { UnitOfWork() }
        createSingleton("user") { User() }
    }
}

/// Runs the `screen` scenario on the main actor, then `finish`; the main thread serves the main
/// actor meanwhile (`dispatchMain`), as an app's run loop would. Never returns.
func screenScenarioThenExit(_ report: Report, finish: @escaping @MainActor () -> Void) -> Never {
    let handOver = ReportHandOver(report)
    Task { @MainActor in
        await screens(handOver.report)
        finish()
        exit(0)
    }
    dispatchMain()
}

/// `Report` is used by one thread at a time: the main thread hands it to the main actor's task
/// and then only serves the main queue.
private struct ReportHandOver: @unchecked Sendable {
    // Safe: see above; the main thread never touches the report again.
    let report: Report
    init(_ report: Report) { self.report = report }
}

@MainActor
private func screens(_ report: Report) async {
    let app = try! await ApplicationContext(AppFactory())
    let ops = 2_000
    func asyncForms() async -> Double {
        let start = ContinuousClock.now
        for _ in 0..<ops {
            try! await app.withChild(ScreenFactory()) { screen in
                blackHole(try await screen.object("editor", as: NoteEditor.self))
            }
        }
        return nanoseconds(since: start) / Double(ops)
    }
    func syncForms() -> Double {
        let start = ContinuousClock.now
        for _ in 0..<ops {
            try! app.withChild(ScreenFactory()) { screen in
                blackHole(try screen.object("editor", as: NoteEditor.self))
            }
        }
        return nanoseconds(since: start) / Double(ops)
    }
    _ = await asyncForms()
    _ = syncForms()
    var project: [Double] = []
    var sync: [Double] = []
    for round in 0..<9 {
        if round % 2 == 0 {
            project.append(await asyncForms())
            sync.append(syncForms())
        } else {
            sync.append(syncForms())
            project.append(await asyncForms())
        }
    }
    report.row("screen", "sync", median(sync), "ns/op")
    report.row("screen", "project", median(project), "ns/op")
}
