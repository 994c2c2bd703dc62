import Trellis

/// `description10000`: `String(describing: context)`, the diagnostic table (key, scope, aliases,
/// type, made or not, context) of a context of 10,000 singletons, every tenth made
/// (`LeafFactory(size: 10_000)`, started). A one-shot whose target is an absolute one (under
/// 50 ms), so it has no hand-written contender.
func descriptionOfLargeContext(_ report: Report) {
    let context = try! ApplicationContext(LeafFactory(size: 10_000))
    report.measure("description10000", unit: "ms", decimals: 2, rounds: 11, [
        .msPerRun("project") { blackHole(String(describing: context)) },
    ])
}
