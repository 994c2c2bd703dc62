import Trellis

/// `singleton project` as a contender of another scenario's rounds, when the `singleton`
/// scenario did not measure it in this run: `parent3` and `optional` are held against it.
private func ownSingletonRow(_ report: Report, _ context: ApplicationContext) -> [(scenario: String, contender: Contender)] {
    guard report.value("singleton", "project") == nil else { return [] }
    return [("singleton", .nsPerOp("project", ops: lookupOps) { n in
        for _ in 0..<n { blackHole(try! context.object("config", as: Config.self)) }
    })]
}

/// `parent3`: a made singleton found 3 levels up (the context asked, its parent and its
/// grandparent define no `config`; their parent made it).
///
/// `baseline` is a chain of 4 keyed baselines the same shape (as /work/shared/bench's
/// `makeBaselineChild` three times): 4 mutexes and 4 hash lookups. `project/singleton` compares
/// it with the lookup in the context that owns the object, so it says what each level costs.
func parent3Lookup(_ report: Report) {
    let root = makeBaseline()
    let _: Config = root.resolve("config")
    let base = makeBaselineChild(of: makeBaselineChild(of: makeBaselineChild(of: root)))
    let context = makeProjectContext()
    var child = context
    for _ in 0..<3 { child = try! ApplicationContext(EmptyChild(), parent: child) }
    let deepest = child
    let n = lookupOps
    report.measure(unit: "ns/op", [
        ("parent3", .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Config = base.resolve("config"); blackHole(x) } }),
        ("parent3", .nsPerOp("project", ops: n) { n in for _ in 0..<n { blackHole(try! deepest.object("config", as: Config.self)) } }),
    ] + ownSingletonRow(report, context))
}

/// `optional`: a made singleton looked up as `Config?` (`let x: Config? = try context.object("config")`),
/// the form a caller writes when it handles absence itself.
///
/// The definition declares `Config`, so the lookup asks for another type than the one stored;
/// `project/singleton` says what that costs against the same lookup as `Config`. `baseline` is
/// the keyed baseline's lookup as `Config?` (a dictionary hit and an `as!` to the optional).
func optionalLookup(_ report: Report) {
    let base = makeBaseline()
    let _: Config = base.resolve("config")
    let context = makeProjectContext()
    let n = lookupOps
    report.measure(unit: "ns/op", [
        ("optional", .nsPerOp("baseline", ops: n) { n in for _ in 0..<n { let x: Config? = base.resolve("config"); blackHole(x) } }),
        ("optional", .nsPerOp("project", ops: n) { n in for _ in 0..<n { let x: Config? = try! context.object("config"); blackHole(x) } }),
    ] + ownSingletonRow(report, context))
}
