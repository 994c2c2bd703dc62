import Trellis

/// `graph`: a prototype `Service` whose closure looks up 2 singletons (`config`, and `database`
/// through `repository`) and 2 prototypes (`repository`, `logger`): 5 lookups in all.
func graphLookup(_ report: Report) {
    let config = Config()
    let database = Database(config: config)
    let base = makeBaseline()
    let context = makeProjectContext()
    let n = lookupOps / 4
    report.measure("graph", unit: "ns/op", [
        .nsPerOp("direct", ops: n) { n in
            for _ in 0..<n { blackHole(Service(config: config, repo: Repository(db: database), logger: Logger())) }
        },
        .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Service = base.resolve("service"); blackHole(x) } },
        .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("service", as: Service.self)) } },
    ])
}
