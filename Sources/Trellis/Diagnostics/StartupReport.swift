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

        /// How long making and injecting it took, what it pulled in included.
        public var duration: Duration { end - start }
    }

    /// The eager singletons in the order their making finished.
    public let entries: [Entry]

    /// The time from the start's beginning to the end of the last eager singleton: for a
    /// concurrent start, less than the sum of the durations.
    public var total: Duration { entries.map(\.end).max() ?? .zero }

    /// A table: key, start and end (ms since the start began), duration, what it pulled in.
    public var description: String {
        var rows = [["eager singleton", "start ms", "end ms", "ms", "pulled in"]]
        for entry in entries {
            rows.append([entry.key, Self.milliseconds(entry.start), Self.milliseconds(entry.end), Self.milliseconds(entry.duration), entry.pulledIn.joined(separator: ", ")])
        }
        rows.append(["total", "", Self.milliseconds(total), Self.milliseconds(total), ""])
        return TextTable.render(rows)
    }

    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = microseconds / 1000, fraction = microseconds % 1000
        return "\(whole)." + String(repeating: "0", count: 3 - String(fraction).count) + "\(fraction)"
    }
}

extension ApplicationContext {
    /// The eager singletons made when this context started, with timings and what each pulled in.
    /// The process's one-time costs (the runtime's first type checks, the clock) are paid before
    /// the first start's clock runs; what remains in the first entry of a type is that type's own
    /// first use (its metadata, its injection plan).
    public var startupReport: StartupReport { StartupReport(entries: journal.startup) }
}
