/// What a whole lookup shares across its continuations: the collectors of a validation or a
/// start, and the rules they impose.
///
/// A nested lookup (a call made from inside a closure without its resolver) gets its own
/// session, so a `validate()` or a context started inside a closure neither sees nor feeds the
/// outer lookup's collectors.
final class Session: Sendable {
    /// The session of an ordinary lookup.
    static let plain = Session()

    /// Set while `validate` runs: problems are collected instead of thrown where the validation
    /// can go on (injection of the scratch context's objects), and synchronous edges to async
    /// definitions that timing could leave unmade are reported.
    let problems: ProblemCollector?
    /// Set while a context starts: what each eager singleton pulls in.
    let startup: StartupCollector?
    /// Set during the concurrent phase of an async start: synchronous frames get
    /// `requiresAwait` for every async definition, made or not (except eager ones of contexts
    /// already started), so a start's outcome never depends on timing.
    let restrictsAsync: Bool
    /// The context being started, when `restrictsAsync`.
    let starting: ObjectIdentifier?

    init(problems: ProblemCollector? = nil, startup: StartupCollector? = nil, restrictsAsyncOf starting: ApplicationContext? = nil) {
        self.problems = problems
        self.startup = startup
        self.restrictsAsync = starting != nil
        self.starting = starting.map { ObjectIdentifier($0) }
    }

    /// While validating the concurrent phase (only then): notes that definition `from` of the
    /// scratch context made its definition `to` synchronously, which the journal's edge does not
    /// tell from an awaited lookup (`ProblemCollector.noteSynchronousLookup`).
    func noteSynchronousLookup(from: Int, to: Int) {
        guard restrictsAsync else { return }
        problems?.noteSynchronousLookup(from: from, to: to)
    }

    func isStarting(_ context: ApplicationContext) -> Bool {
        starting == ObjectIdentifier(context)
    }
}
