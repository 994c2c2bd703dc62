/// The eager singletons a context made when it started, in the order their making finished,
/// with when each started and ended and what each pulled in: where to look when start-up is slow.
///
/// `String(describing: context.startupReport)` prints a table. After an async start, overlapping
/// `start`…`end` ranges show the eager singletons that were made concurrently.
public struct StartupReport: Sendable, CustomStringConvertible {
    /// One eager singleton made at start.
    public struct Entry: Sendable {
        /// The eager singleton's key.
        public let key: String
        /// When its making started, since the start began.
        public let start: Duration
        /// When it was made and injected, what it pulled in included, since the start began.
        public let end: Duration
        /// The objects made while making it, as `Context.key`, in the order they were finished.
        public let pulledIn: [String]
        /// The part of its making spent waiting for other definitions: the time during which
        /// the definitions it depends on were being made after it asked for them, by its own
        /// lookups or by another task it waited for. `duration - waited` is the time its own
        /// closure and injection took.
        public let waited: Duration

        init(key: String, start: Duration, end: Duration, pulledIn: [String], waited: Duration = .zero) {
            self.key = key
            self.start = start
            self.end = end
            self.pulledIn = pulledIn
            self.waited = waited
        }

        /// How long making and injecting it took, what it pulled in included.
        public var duration: Duration { end - start }

        /// The same entry, having waited `waited`.
        func waiting(_ waited: Duration) -> Entry {
            Entry(key: key, start: start, end: end, pulledIn: pulledIn, waited: waited)
        }
    }

    /// The eager singletons in the order their making finished.
    public let entries: [Entry]

    /// The chain of waits that set the start's duration, outermost dependency first, as
    /// `["config", "pool", "server"]`: the eager singleton that finished last, the definition
    /// made during the start that it depends on and that took longest to make (made before it
    /// began, or after it asked; not one another task made meanwhile), the same for that one,
    /// and so on.
    /// Keys of this context are plain, those of a parent are `Context.key`. Speeding up anything
    /// on it shortens the start; anything off it was made while the path was waiting anyway.
    /// Empty when the start made nothing.
    public let criticalPath: [String]

    init(entries: [Entry], criticalPath: [String] = []) {
        self.entries = entries
        self.criticalPath = criticalPath
    }

    /// The time from the start's beginning to the end of the last eager singleton: for a
    /// concurrent start, less than the sum of the durations.
    public var total: Duration { entries.map(\.end).max() ?? .zero }

    /// A table: key, start and end (ms since the start began), duration, time waited, what it
    /// pulled in, and `*` in the last column for the eager singletons on the critical path; the
    /// `total` row's last column is the whole critical path, as `config → pool → server`.
    public var description: String {
        var rows = [["eager singleton", "start ms", "end ms", "ms", "waited ms", "pulled in", "critical path"]]
        for entry in entries {
            rows.append([entry.key, Self.milliseconds(entry.start), Self.milliseconds(entry.end), Self.milliseconds(entry.duration), Self.milliseconds(entry.waited),
                         entry.pulledIn.joined(separator: ", "), criticalPath.contains(entry.key) ? "*" : ""])
        }
        rows.append(["total", "", Self.milliseconds(total), Self.milliseconds(total), "", "", criticalPath.joined(separator: " → ")])
        return TextTable.render(rows)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = microseconds / 1000, fraction = microseconds % 1000
        return "\(whole)." + String(repeating: "0", count: 3 - String(fraction).count) + "\(fraction)"
    }
}
