// An app target's screens, Reliant's pattern: one child context per screen, closed when the screen
// goes. Main-actor objects (as every class of an app target built with default main-actor
// isolation is) are made by main-actor definitions, one of them async, and a main-actor
// `Disposable` is disposed on the main actor when the screen closes, whichever form of close
// runs. Services stay `nonisolated`. Run it with `swift run ScreenScope`.
import Trellis

// MARK: - Services: nonisolated, made by the ordinary definitions

nonisolated final class NotesStore: Sendable {
    func load(_ id: Int) async -> String { "note \(id): buy milk" }
}

// MARK: - UI objects: main-actor, made by the main-actor definitions

/// In an app target the `@MainActor`s are implied: the class by default isolation, the conformance
/// by inference (SE-0470). This snippet's module is not built that way, so they are written out.
@MainActor final class UndoHistory: @MainActor Disposable {
    private(set) var edits: [String] = []
    func record(_ edit: String) { edits.append(edit) }
    func dispose() { print("undo history flushed: \(edits)") }
}

@MainActor final class EditorModel {
    let text: String
    let undo: UndoHistory
    init(text: String, undo: UndoHistory) {
        self.text = text
        self.undo = undo
    }
}

struct AppFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("notes") { NotesStore() }
    }
}

struct EditorFactory: ObjectFactory {
    let noteID: Int
    var definitions: Definitions {
        createMainActorSingleton("undo") { UndoHistory() }
        // An async main-actor closure: awaits a service, runs on the main actor.
        createMainActorSingleton("editor") { [noteID] r in
            let notes: NotesStore = try await r.object("notes")
            return EditorModel(text: await notes.load(noteID), undo: try await r.object("undo"))
        }
    }
}

// MARK: - The screens

@MainActor
func openEditor(_ app: ApplicationContext, note: Int) async throws {
    // The child is closed when the body returns or throws; its undo history is disposed on the
    // main actor either way.
    try await app.withChild(EditorFactory(noteID: note)) { editor in
        let model: EditorModel = try await editor.object("editor")
        model.undo.record("edited '\(model.text)'")
        print("editing \(model.text)")
    }
}

@MainActor
func main() async throws {
    let app = try await ApplicationContext(AppFactory())
    try await openEditor(app, note: 1)
    try await openEditor(app, note: 2)
    try await app.close()
}

try await main()
