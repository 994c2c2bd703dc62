// Support for the code of Docs/Diagnostics.md, checked by .ci/check-docs: the objects of
// Snippets/GraphExport.swift (the QuickStart's app) and of the start-up report's shop.
final class Clock: Sendable {
    func now() -> String { "09:41" }
}

protocol Mailer: AnyObject, Sendable {
    func send(_ text: String) -> String
}

final class SMTPMailer: Mailer {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
    func send(_ text: String) -> String { "[\(clock.now())] sent '\(text)'" }
}

final class Request: Sendable {
    let mailer: any Mailer
    init(mailer: any Mailer) { self.mailer = mailer }
}

final class Pool: Sendable {}

final class Database: Sendable {
    let pool: Pool
    init(pool: Pool) { self.pool = pool }
}

final class Catalog: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

final class Search: Sendable {
    let catalog: Catalog
    init(catalog: Catalog) { self.catalog = catalog }
}
