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

/// Left-aligned columns separated by two spaces, with a rule under the header.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }.joined(separator: "  ")
        }
        var lines = [line(rows[0]), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += rows.dropFirst().map(line)
        return lines.joined(separator: "\n")
    }
}
