import Trellis

/// `bootstrap<size>`: `size` singletons, every tenth eager, declared and started.
///
/// `project` builds `LeafFactory(size:)`'s context (collect, check names, make the eager tenth);
/// `baseline` registers `size` closures and resolves every tenth; `direct` makes the eager tenth
/// by hand into an array.
func bootstrap(_ report: Report, size: Int) {
    report.measure("bootstrap\(size)", unit: "ms", decimals: 2, rounds: 11, [
        .msPerRun("direct") {
            var leaves: [Leaf] = []
            leaves.reserveCapacity(size / 10 + 1)
            for i in stride(from: 0, to: size, by: 10) { leaves.append(Leaf(i)) }
            blackHole(leaves)
        },
        .msPerRun("baseline") {
            let c = KeyedBaseline()
            for i in 0..<size { c.singleton("leaf\(i)") { _ in Leaf(i) } }
            for i in stride(from: 0, to: size, by: 10) { let x: Leaf = c.resolve("leaf\(i)"); blackHole(x) }
            blackHole(c)
        },
        .msPerRun("project") { blackHole(try! ApplicationContext(LeafFactory(size: size))) },
    ])
}
