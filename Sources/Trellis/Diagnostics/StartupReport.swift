/// The eager singletons a context made when it started, in the order made, with the time each
/// took and what each pulled in: where to look when start-up is slow.
///
/// `String(describing: context.startupReport)` prints a table.
public struct StartupReport: Sendable, CustomStringConvertible {
    /// One eager singleton made at start.
    public struct Entry: Sendable {
        /// The eager singleton's key.
        public let key: String
        /// How long making and injecting it took, what it pulled in included.
        public let duration: Duration
        /// The objects made while making it, as `Context.key`, in the order they were finished.
        public let pulledIn: [String]
    }

    /// The eager singletons in the order made.
    public let entries: [Entry]

    /// The time all eager singletons took together.
    public var total: Duration { entries.reduce(.zero) { $0 + $1.duration } }

    /// A table: key, milliseconds, what it pulled in.
    public var description: String {
        var rows = [["eager singleton", "ms", "pulled in"]]
        for entry in entries {
            rows.append([entry.key, Self.milliseconds(entry.duration), entry.pulledIn.joined(separator: ", ")])
        }
        rows.append(["total", Self.milliseconds(total), ""])
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
    public var startupReport: StartupReport { StartupReport(entries: records.startup) }
}
