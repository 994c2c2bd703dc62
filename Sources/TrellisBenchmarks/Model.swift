import Trellis

// The object graph every contender builds (as in /work/shared/bench/Sources/Bench/Model.swift):
// two singletons, three prototypes. Immutable, hence `Sendable`, so the baseline may share them.
final class Config: Sendable { let url = "postgres://localhost/app" }
final class Database: Sendable { let config: Config; init(config: Config) { self.config = config } }
final class Repository: Sendable { let db: Database; init(db: Database) { self.db = db } }
final class Logger: Sendable { let level = 1 }
final class Service: Sendable {
    let config: Config
    let repo: Repository
    let logger: Logger
    init(config: Config, repo: Repository, logger: Logger) {
        self.config = config
        self.repo = repo
        self.logger = logger
    }
}
final class Leaf: Sendable { let n: Int; init(_ n: Int) { self.n = n } }

/// Five collaborators filled by key through `@Inject` (`configuration` is an alias of `config`).
final class Injected5 {
    @Inject var config: Config
    @Inject var database: Database
    @Inject var repository: Repository
    @Inject var logger: Logger
    @Inject var configuration: Config
}

/// The same five collaborators as plain optionals, the shared bench's `injection direct`.
final class HandFilled {
    var config: Config?
    var database: Database?
    var repository: Repository?
    var logger: Logger?
    var configuration: Config?
}

/// The bench model, written as a user would (README, "A first example").
struct BenchFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("config") { Config() }.aliases("configuration")
        createSingleton("database") { r in Database(config: try r.object("config")) }
        createPrototype("repository") { r in Repository(db: try r.object("database")) }
        createPrototype("logger") { Logger() }
        createPrototype("injected") { Injected5() }
        createPrototype("service") { r in
            Service(config: try r.object("config"), repo: try r.object("repository"), logger: try r.object("logger"))
        }
    }
}

/// A child context that defines nothing the lookups ask for: they are answered one level up.
struct EmptyChild: ObjectFactory {
    var definitions: Definitions { createSingleton("unrelated") { Leaf(0) } }
}

/// `size` singletons, every tenth eager.
struct LeafFactory: ObjectFactory {
    let size: Int
    var definitions: Definitions {
        for i in 0..<size {
            if i % 10 == 0 {
                createEagerSingleton("leaf\(i)") { Leaf(i) }
            } else {
                createSingleton("leaf\(i)") { Leaf(i) }
            }
        }
    }
}

/// The bench model's context with `config` and `database` made.
func makeProjectContext() -> ApplicationContext {
    let context = try! ApplicationContext(BenchFactory())
    blackHole(try! context.object("database", as: Database.self))
    return context
}

extension Injected5 {
    /// The same object filled by hand through the wrappers' setters: what injection is held to.
    static func filledByHand(config: Config, database: Database) -> Injected5 {
        let object = Injected5()
        object.config = config
        object.database = database
        object.repository = Repository(db: database)
        object.logger = Logger()
        object.configuration = config
        return object
    }
}
