import Trellis

/// `injection`: a prototype with 5 `@Inject` properties (2 singletons, 2 prototypes, 1 alias).
///
/// `direct` is the same `Injected5` filled by hand through the wrappers' setters; `direct-plain`
/// is a class of plain optionals filled by hand (the shared bench's `direct`), which shows what
/// the `@Inject` wrappers themselves cost; `baseline` is the keyed baseline's closure filling an
/// `Injected5` from five lookups.
func injection(_ report: Report) {
    let config = Config()
    let database = Database(config: config)
    let base = makeBaseline()
    let context = makeProjectContext()
    let n = lookupOps / 10
    report.measure("injection", unit: "ns/op", [
        .nsPerOp("direct", ops: n) { n in
            for _ in 0..<n {
                blackHole(Injected5.filledByHand(config: config, database: database))
            }
        },
        .nsPerOp("direct-plain", ops: n) { n in
            for _ in 0..<n {
                let object = HandFilled()
                object.config = config
                object.database = database
                object.repository = Repository(db: database)
                object.logger = Logger()
                object.configuration = config
                blackHole(object)
            }
        },
        .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Injected5 = base.resolve("injected"); blackHole(x) } },
        .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("injected", as: Injected5.self)) } },
    ])
}

/// `injection-default`: `injection`'s `project` while `ApplicationContext.setDefault` is set
/// (`with-default`), when every wrapper made also notes the current context (Docs/Injection.md, "Plain init and the current context"), against
/// `project` without. A scenario of its own: interleaved with `injection`'s rows, the objects it
/// leaves to the allocator slowed them by 8 %.
func injectionWithDefault(_ report: Report) {
    let context = makeProjectContext()
    let n = lookupOps / 10
    report.measure("injection-default", unit: "ns/op", [
        .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("injected", as: Injected5.self)) } },
        .nsPerOp("with-default", ops: n) { n in
            ApplicationContext.setDefault(context)
            defer { ApplicationContext.setDefault(nil) }
            for _ in 0..<n { blackHole(try! context.object("injected", as: Injected5.self)) }
        },
    ])
}
