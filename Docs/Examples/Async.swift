// Support for the code of Docs/Async.md, checked by .ci/check-docs: the objects of a small server
// whose set-up is async. The bodies stand in for real I/O.
import Trellis

struct Config: Sendable {
    let databaseURL: String
    static func load() async throws -> Config { Config(databaseURL: "postgres://localhost/app") }
}

final class DatabasePool: Sendable {
    static func connect(_ config: Config) async throws -> DatabasePool { DatabasePool() }
}

final class MetricsClient: Sendable {
    static func register() async throws -> MetricsClient { MetricsClient() }
}

final class Repository: Sendable {
    let pool: DatabasePool
    init(pool: DatabasePool) { self.pool = pool }
}

final class Report: Sendable {
    static func build(_ repository: Repository) async throws -> Report { Report() }
}

final class Cache: Sendable {
    static func warm() async -> Cache { Cache() }
}


