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
