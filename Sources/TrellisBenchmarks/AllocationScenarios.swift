import Trellis

/// `allocations`: Swift heap allocations per lookup (see `AllocationCounter`). A lookup of a made
/// singleton, by key, alias or through a parent, should allocate nothing; a prototype lookup
/// should allocate what its closure makes (the `…-objects` row says how many objects that is).
func allocations(_ report: Report) {
    #if canImport(Glibc)
    let context = makeProjectContext()
    let child = try! ApplicationContext(EmptyChild(), parent: context)
    let base = makeBaseline()
    let _: Config = base.resolve("config")
    let config = Config()
    let database = Database(config: config)
    let n = 100_000

    guard AllocationCounter.install() else {
        print("allocations: this Swift runtime exports no _swift_allocObject hook; not measured")
        return
    }
    defer { AllocationCounter.uninstall() }

    func row(_ contender: String, _ allocationsPerOp: Double) {
        report.row("allocations", contender, allocationsPerOp, "allocs/op", decimals: 2)
    }
    // Proves the counter sees allocations: exactly one object per operation.
    row("counter-check", AllocationCounter.perOp(ops: n) { n in for _ in 0..<n { blackHole(Logger()) } })
    row("singleton-lookup", AllocationCounter.perOp(ops: n) { n in
        for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) }
    })
    row("alias-lookup", AllocationCounter.perOp(ops: n) { n in
        for _ in 0..<n { blackHole(try! context.object("configuration", as: Config.self)) }
    })
    row("parent-lookup", AllocationCounter.perOp(ops: n) { n in
        for _ in 0..<n { blackHole(try! child.object("config", as: Config.self)) }
    })
    row("baseline-singleton-lookup", AllocationCounter.perOp(ops: n) { n in
        for _ in 0..<n { let x: Config = base.resolve("config"); blackHole(x) }
    })
    row("prototype-objects", AllocationCounter.perOp(ops: n) { n in for _ in 0..<n { blackHole(Logger()) } })
    row("prototype-lookup", AllocationCounter.perOp(ops: n) { n in
        for _ in 0..<n { blackHole(try! context.object("logger", as: Logger.self)) }
    })
    row("graph-objects", AllocationCounter.perOp(ops: n / 10) { n in
        for _ in 0..<n { blackHole(Service(config: config, repo: Repository(db: database), logger: Logger())) }
    })
    row("graph-lookup", AllocationCounter.perOp(ops: n / 10) { n in
        for _ in 0..<n { blackHole(try! context.object("service", as: Service.self)) }
    })
    row("injection-objects", AllocationCounter.perOp(ops: n / 10) { n in
        for _ in 0..<n {
            blackHole(Injected5.filledByHand(config: config, database: database))
        }
    })
    row("injection-lookup", AllocationCounter.perOp(ops: n / 10) { n in
        for _ in 0..<n { blackHole(try! context.object("injected", as: Injected5.self)) }
    })
    #else
    print("allocations: needs glibc (Linux); not measured on this platform")
    #endif
}
