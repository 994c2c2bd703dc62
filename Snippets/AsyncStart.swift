// Async definitions and the concurrent start: configuration loaded with `await`, a pool that
// connects with `await`, a synchronous repository, an async prototype; the start table showing
// the eager singletons made side by side; lookups with and without `await`; and the error a
// synchronous lookup of an unmade async definition gets.
// Run it with `swift run AsyncStart`.
import Trellis

// MARK: - The objects of a small server

struct Config: Sendable {
    let databaseURL: String
    let poolSize: Int

    static func load() async throws -> Config {
        try await Task.sleep(for: .milliseconds(30))          // reading a file, a secrets service…
        return Config(databaseURL: "postgres://localhost/app", poolSize: 4)
    }
}

final class DatabasePool: Sendable {
    let config: Config
    private init(config: Config) { self.config = config }

    static func connect(_ config: Config) async throws -> DatabasePool {
        try await Task.sleep(for: .milliseconds(40))          // opening the connections
        return DatabasePool(config: config)
    }
}

final class MetricsClient: Sendable {
    static func register() async throws -> MetricsClient {
        try await Task.sleep(for: .milliseconds(50))          // independent of the others
        return MetricsClient()
    }
}

final class Repository: Sendable {
    let pool: DatabasePool
    init(pool: DatabasePool) { self.pool = pool }
    func count() -> Int { pool.config.poolSize * 10 }
}

final class Report: Sendable {
    let rows: Int
    private init(rows: Int) { self.rows = rows }

    static func build(_ repository: Repository) async throws -> Report {
        await Task.yield()
        return Report(rows: repository.count())
    }
}

final class Cache: Sendable {
    static func warm() async -> Cache { Cache() }
}

// MARK: - The factory: async closures where the work is async, plain ones elsewhere

struct ServerFactory: ObjectFactory {
    var definitions: Definitions {
        createEagerSingleton("config") { try await Config.load() }
        createEagerSingleton("pool") { r in try await DatabasePool.connect(try await r.object("config", as: Config.self)) }
        createEagerSingleton("metrics") { try await MetricsClient.register() }
        createSingleton("repository") { r in Repository(pool: try r.object("pool")) }      // synchronous
        createPrototype("report") { r in try await Report.build(try await r.object("repository", as: Repository.self)) }
        createSingleton("cache") { await Cache.warm() }                                    // lazy and async
    }
}

func show(_ label: String, _ values: Any...) {
    let padded = label + String(repeating: " ", count: max(1, 22 - label.count))
    print(padded + values.map { "\($0)" }.joined(separator: " "))
}

// Top-level code (main.swift, a snippet, a script) picks the synchronous overloads even where
// `await` is written, so the async forms are called from an async function.
func runServer() async throws {
    // Async code validates with `await`: it makes the async definitions too.
    show("validate", await ApplicationContext.validate(ServerFactory()))

    // The async start makes config, pool and metrics concurrently: metrics overlaps the
    // config → pool chain, so the start takes about the longest chain, not the sum.
    let app = try await ApplicationContext(ServerFactory())
    print("\nstartup report (overlapping start…end ranges were made concurrently):")
    print(app.startupReport)
    print()

    // Synchronous code is unchanged: made async singletons come back like any other.
    try synchronousCode(app)

    // In async code, the async form: it makes async definitions, waiting by suspending.
    let report: Report = try await app.object("report")
    show("async prototype", "report has", report.rows, "rows")

    // A synchronous lookup of an async definition that is not made yet says how to fix it.
    do {
        _ = try lookUpSynchronously(app, "cache", as: Cache.self)
    } catch {
        show("requiresAwait", error.description)
    }
    let cache: Cache = try await app.object("cache")
    show("after an await", "the cache, synchronously:", try lookUpSynchronously(app, "cache", as: Cache.self) === cache)
}

/// Synchronous code, as it was before any definition became async.
func synchronousCode(_ app: ApplicationContext) throws {
    let repository: Repository = try app.object("repository")
    show("synchronous lookup", "repository counts", repository.count(), "rows")
    show("made async singleton", "the pool, synchronously:", try app.object("pool", as: DatabasePool.self) === repository.pool)
}

/// A synchronous function: in it Swift picks the synchronous `object`.
func lookUpSynchronously<T>(_ context: ApplicationContext, _ key: String, as type: T.Type) throws(ContextError) -> T {
    try context.object(key, as: T.self)
}

try await runServer()
