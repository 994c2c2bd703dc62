import Testing
import Trellis

// MARK: Reading the table

/// The rows of a Trellis text table (a context's description or a startup report), each keyed
/// by its column's header. Columns are found from the rule under the header (runs of `-`
/// separated by two spaces), so empty cells read as "".
func diagnosticsTableRows(_ table: String) -> [[String: String]] {
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 2 else { return [] }
    var columns: [Range<Int>] = []
    var start: Int?
    for (offset, character) in lines[1].enumerated() {
        if character == "-" {
            if start == nil { start = offset }
        } else if let begun = start {
            columns.append(begun..<offset)
            start = nil
        }
    }
    if let begun = start { columns.append(begun..<Int.max) }
    func cells(_ line: String) -> [String] {
        let characters = Array(line)
        return columns.map { column in
            guard column.lowerBound < characters.count else { return "" }
            let end = min(column.upperBound, characters.count)
            return String(characters[column.lowerBound..<end]).trimmingSpaces()
        }
    }
    let header = cells(lines[0])
    return lines.dropFirst(2).map { line in
        Dictionary(uniqueKeysWithValues: zip(header, cells(line)))
    }
}

func diagnosticsTableRows(_ context: ApplicationContext) -> [[String: String]] {
    diagnosticsTableRows(String(describing: context))
}

private extension String {
    func trimmingSpaces() -> String {
        var result = Substring(self)
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return String(result)
    }
}

// MARK: Factories

private final class DescriptionClock: Sendable {}
private final class DescriptionMailer: Sendable {}
private struct DescriptionRequest: Sendable {}

private struct DescriptionAppFactory: ObjectFactory {
    var contextName: String { "App" }

    var definitions: Definitions {
        createEagerSingleton("clock") { DescriptionClock() }
        createSingleton("mailer") { r in
            _ = try r.object("clock", as: DescriptionClock.self)
            return DescriptionMailer()
        }
        .aliases("mailService")
        aliases(for: "mailer", "postman")
    }
}

private struct DescriptionScreenFactory: ObjectFactory {
    var contextName: String { "Screen" }

    var definitions: Definitions {
        createPrototype("request") { DescriptionRequest() }
        createSingleton("title") { "Checkout" }
    }
}

// MARK: Tests

@Suite struct DescriptionTests {
    @Test func descriptionStartsWithAHeaderAndARule() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        let lines = String(describing: app).split(separator: "\n").map(String.init)
        let header = try #require(lines.first)
        #expect(header.split(separator: " ").map(String.init) == ["key", "scope", "aliases", "type", "made", "context"])
        #expect(lines[1].allSatisfy { $0 == "-" || $0 == " " })
    }

    @Test func descriptionIncludingParentsHasOneRowPerDefinitionOwnAndParents() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        let screen = try ApplicationContext(DescriptionScreenFactory(), parent: app)
        let rows = diagnosticsTableRows(screen.description(includingParents: true))
        #expect(rows.map { $0["key"] } == ["request", "title", "clock", "mailer"])
        #expect(rows.map { $0["context"] } == ["Screen", "Screen", "App", "App"])
    }

    @Test func descriptionOfAChildShowsItsOwnRowsAndOneLinePerAncestor() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        let screen = try ApplicationContext(DescriptionScreenFactory(), parent: app)
        let lines = String(describing: screen).split(separator: "\n").map(String.init)
        let rows = diagnosticsTableRows(String(lines.dropLast().joined(separator: "\n")))
        #expect(rows.map { $0["key"] } == ["request", "title"])
        #expect(lines.last == "parent 'App': 2 definitions (description(includingParents: true) lists them)")
    }

    @Test func descriptionRowShowsScopeAliasesAndType() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        let screen = try ApplicationContext(DescriptionScreenFactory(), parent: app)
        let rows = diagnosticsTableRows(screen.description(includingParents: true))
        let mailer = try #require(rows.first { $0["key"] == "mailer" })
        #expect(mailer["scope"] == "singleton")
        // Explicit aliases first, in declaration order, then the generated default alias.
        #expect(mailer["aliases"] == "mailService, postman, MAILER")
        #expect(mailer["type"] == "DescriptionMailer")
        let clock = try #require(rows.first { $0["key"] == "clock" })
        #expect(clock["scope"] == "eagerSingleton")
        #expect(clock["aliases"] == "CLOCK")
        let request = try #require(rows.first { $0["key"] == "request" })
        #expect(request["scope"] == "prototype")
        #expect(request["type"] == "DescriptionRequest")
        let title = try #require(rows.first { $0["key"] == "title" })
        #expect(title["type"] == "String")
    }

    @Test func madeColumnFlipsAfterLookup() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        let screen = try ApplicationContext(DescriptionScreenFactory(), parent: app)
        func made(_ key: String) -> String? {
            diagnosticsTableRows(screen.description(includingParents: true)).first { $0["key"] == key }?["made"]
        }
        #expect(made("clock") == "yes")   // eager: made at start
        #expect(made("mailer") == "no")
        #expect(made("title") == "no")
        _ = try screen.object("mailService", as: DescriptionMailer.self)
        _ = try screen.object("title", as: String.self)
        #expect(made("mailer") == "yes")
        #expect(made("title") == "yes")
    }

    @Test func prototypesAreNeverShownAsMade() throws {
        let screen = try ApplicationContext(DescriptionScreenFactory())
        _ = try screen.object("request", as: DescriptionRequest.self)
        let request = try #require(diagnosticsTableRows(screen).first { $0["key"] == "request" })
        #expect(request["made"] == "-")
    }

    @Test func parentDescriptionDoesNotListItsChildren() throws {
        let app = try ApplicationContext(DescriptionAppFactory())
        _ = try ApplicationContext(DescriptionScreenFactory(), parent: app)
        #expect(diagnosticsTableRows(app).map { $0["key"] } == ["clock", "mailer"])
    }
}

// MARK: A large context (issue 10, point 8)

/// `count` singletons `Item0 …`, every third with an explicit alias `alias<i>` given by the
/// modifier, every fifth with one given by `aliases(for:)`; keys starting with an uppercase letter
/// so each has both default aliases (`ITEM<i>`, `item<i>`).
private struct DescriptionLargeFactory: ObjectFactory {
    var contextName: String { "Large" }
    let count: Int

    var definitions: Definitions {
        for index in 0..<count {
            if index.isMultiple(of: 3) {
                createSingleton("Item\(index)") { index }.aliases("alias\(index)")
            } else {
                createSingleton("Item\(index)") { index }
            }
            if index.isMultiple(of: 5) {
                aliases(for: "Item\(index)", "other\(index)")
            }
        }
    }

    /// The aliases the description lists for definition `index`: explicit first, in declaration
    /// order, then the generated ones.
    static func explicitAliases(_ index: Int) -> [String] {
        (index.isMultiple(of: 3) ? ["alias\(index)"] : []) + (index.isMultiple(of: 5) ? ["other\(index)"] : [])
    }
}

extension DescriptionTests {
    // Describing must be linear in the number of definitions; the benchmark row
    // `description10000` measures it (no timed assertion here). Here: a 10,000-definition context
    // is described completely, each row with its own aliases.
    @Test func descriptionOfATenThousandDefinitionContextListsEveryDefinitionWithItsOwnAliases() throws {
        let count = 10_000
        let context = try ApplicationContext(DescriptionLargeFactory(count: count))
        for index in stride(from: 0, to: count, by: 7) {
            _ = try context.object("Item\(index)", as: Int.self)
        }
        let rows = diagnosticsTableRows(context)
        try #require(rows.count == count)
        var wrong: [String] = []
        for (index, row) in rows.enumerated() {
            let explicit = DescriptionLargeFactory.explicitAliases(index)
            let aliases = (row["aliases"] ?? "").split(separator: ", ").map(String.init)
            let expectedMade = index.isMultiple(of: 7) ? "yes" : "no"
            if row["key"] != "Item\(index)"
                || Array(aliases.prefix(explicit.count)) != explicit
                || Set(aliases.dropFirst(explicit.count)) != ["ITEM\(index)", "item\(index)"]
                || row["scope"] != "singleton"
                || row["made"] != expectedMade
                || row["context"] != "Large" {
                wrong.append("\(index): \(row)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}

extension DescriptionTests {
    @Test func descriptionIncludingParentsOfAChildOfATenThousandDefinitionContextListsBoth() throws {
        let count = 10_000
        let parent = try ApplicationContext(DescriptionLargeFactory(count: count))
        let child = try ApplicationContext(DescriptionScreenFactory(), parent: parent)
        let rows = diagnosticsTableRows(child.description(includingParents: true))
        try #require(rows.count == count + 2)
        #expect(rows.prefix(2).map { $0["key"] } == ["request", "title"])
        #expect(rows.dropFirst(2).map { $0["key"] } == (0..<count).map { "Item\($0)" })
        #expect(rows[2 + 15]["aliases"]?.hasPrefix("alias15, other15, ") == true)
    }
}
