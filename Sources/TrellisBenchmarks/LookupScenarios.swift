import Trellis

/// Lookups per sample in the lookup scenarios.
let lookupOps = 1_000_000

/// `singleton`, `alias`, `parent`: a made singleton looked up by key, by explicit alias, and by
/// key through a child context that does not define it. `direct` is the object at hand.
func singletonLookups(_ report: Report, _ wants: (String) -> Bool) {
    let config = Config()
    let base = makeBaseline()
    let baseChild = makeBaselineChild(of: base)
    let context = makeProjectContext()
    let child = try! ApplicationContext(EmptyChild(), parent: context)
    let _: Config = base.resolve("config")
    let n = lookupOps
    let direct = Contender.nsPerOp("direct", ops: n) { n in for _ in 0..<n { blackHole(config) } }

    if wants("singleton") {
        report.measure("singleton", unit: "ns/op", [
            direct,
            .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Config = base.resolve("config"); blackHole(x) } },
            .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) } },
        ])
    }
    if wants("alias") {
        report.measure("alias", unit: "ns/op", [
            direct,
            .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Config = base.resolve("configuration"); blackHole(x) } },
            .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("configuration", as: Config.self)) } },
        ])
    }
    if wants("parent") {
        report.measure("parent", unit: "ns/op", [
            direct,
            .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Config = baseChild.resolve("config"); blackHole(x) } },
            .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! child.object("config", as: Config.self)) } },
        ])
    }
}

/// `prototype`: a new dependency-free object on every lookup.
func prototypeLookup(_ report: Report) {
    let base = makeBaseline()
    let context = makeProjectContext()
    let n = lookupOps
    report.measure("prototype", unit: "ns/op", [
        .nsPerOp("direct", ops: n) { n in for _ in 0..<n { blackHole(Logger()) } },
        .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Logger = base.resolve("logger"); blackHole(x) } },
        .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! context.object("logger", as: Logger.self)) } },
    ])
}
