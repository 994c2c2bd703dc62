import Trellis

/// `allocations`: Swift heap allocations per lookup (see `AllocationCounter`). A lookup of a made
/// singleton, by key, alias or through a parent, should allocate nothing; a prototype lookup
/// should allocate what its closure makes (the `…-objects` row says how many objects that is).
///
/// The per-object and per-request rows come in pairs, so the library's own allocations read as
/// the difference: `injection-objects` (an `Injected5` filled by hand: the object and the two
/// prototypes it holds) against `injection-lookup` (the same object as an injected prototype),
/// and `child-objects` (a request's three objects wired by hand) against `child-request` (a
/// child context of 4 definitions made, `handler` resolved, the child dropped) and
/// `baseline-child-request` (the same in the keyed baseline). The counter sees Swift heap
/// objects only: raw buffers a context takes with `UnsafeMutablePointer.allocate` (its
/// per-definition tables) are not in `child-request`. `request-objects` and
/// `request-objects-kept` are `request`'s two hand-written loops (`HandWiredRequests`), against
/// `request`.
func allocations(_ report: Report) {
    #if canImport(Glibc)
    let context = makeProjectContext()
    let child = try! ApplicationContext(EmptyChild(), parent: context)
    let base = makeBaseline()
    let _: Config = base.resolve("config")
    let config = Config()
    let database = Database(config: config)
    let app = makeAppContext()
    let baseApp = makeBaselineApp()
    let appConfig: Config = try! app.object("config")
    let appDatabase: Database = try! app.object("database")
    let requestApp = makeRequestApp()
    let byHand = HandWiredRequests(from: requestApp)
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
    row("child-objects", AllocationCounter.perOp(ops: n / 10) { n in
        for i in 0..<n { blackHole(handlerByHand(i, config: appConfig, database: appDatabase)) }
    })
    row("baseline-child-request", AllocationCounter.perOp(ops: n / 100) { n in
        for i in 0..<n { let x: Handler = makeBaselineRequest(i, app: baseApp).resolve("handler"); blackHole(x) }
    })
    row("child-request", AllocationCounter.perOp(ops: n / 100) { n in
        for i in 0..<n { blackHole(try! ApplicationContext(RequestFactory(id: i), parent: app).object("handler", as: Handler.self)) }
    })
    // `request`'s two hand-written loops: through `handler.service` alone the optimiser makes
    // one of the five objects on the heap; keeping the handler, all five.
    row("request-objects", AllocationCounter.perOp(ops: n / 10) { n in byHand.run(from: 0, count: n) })
    row("request-objects-kept", AllocationCounter.perOp(ops: n / 10) { n in byHand.runKeepingEveryObject(from: 0, count: n) })
    row("request", AllocationCounter.perOp(ops: n / 100) { n in projectRequests(requestApp, from: 0, count: n) })
    #else
    print("allocations: needs glibc (Linux); not measured on this platform")
    #endif
}
