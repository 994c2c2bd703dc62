import Trellis

extension Contender {
    /// Wall nanoseconds per operation, all threads' operations counted, of `threads` threads
    /// each running `loop(ops)`.
    static func wallNsPerOp(_ name: String, threads: Int, ops: Int, _ loop: @escaping @Sendable (Int) -> Void) -> Contender {
        Contender(name: name, warmUp: { _ = wallNs(threads: threads) { _ in loop(min(ops, 1000)) } }) {
            wallNs(threads: threads) { _ in loop(ops) } / Double(threads * ops)
        }
    }
}

/// `concurrent`: 2 threads looking up one made singleton, against the same loop on 1 thread.
func concurrentLookups(_ report: Report) {
    let ops = lookupOps
    let config = Config()
    let base = makeBaseline()
    let context = makeProjectContext()
    let _: Config = base.resolve("config")

    let direct: @Sendable (Int) -> Void = { n in for _ in 0..<n { blackHole(config) } }
    let baseline: @Sendable (Int) -> Void = { n in for _ in 0..<n { let x: Config = base.resolve("config"); blackHole(x) } }
    let project: @Sendable (Int) -> Void = { n in for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) } }

    report.measure("concurrent", unit: "ns/op", rounds: 9, [
        .wallNsPerOp("direct", threads: 2, ops: ops, direct),
        .wallNsPerOp("baseline-1thread", threads: 1, ops: ops, baseline),
        .wallNsPerOp("baseline", threads: 2, ops: ops, baseline),
        .wallNsPerOp("project-1thread", threads: 1, ops: ops, project),
        .wallNsPerOp("project", threads: 2, ops: ops, project),
    ])
}
