#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// trellis-benchmarks [scenario…] (no scenario: all of them); Docs/Performance.md describes each.
//
//     swift run -c release trellis-benchmarks [singleton alias parent parent3 optional prototype
//         graph injection bootstrap10000 bootstrap100000 (or bootstrap) concurrent
//         concurrent-distinct concurrent-requests child child-bytype child-eager request request-protocols
//         request-disposable request-current backend bytype description10000 allocations
//         asyncSingleton asyncStart
//         injection-default screen] [soak]
//
// Measures, in one process and interleaved round by round, Trellis (`project`) against a
// hand-written `Mutex`-guarded keyed container (`baseline`, Baseline.swift) and the initialisers
// called by hand (`direct`). Prints one `scenario contender value unit` row per measurement
// (median of the rounds; the format of /work/shared/bench), then `ratio …` lines. Some
// scenarios have floors of their own (`arc-floor`, one-thread rows, `singleton project` for
// `parent3` and `optional`); each scenario's doc comment says what its contenders measure. The
// `allocations` rows count Swift heap allocations per lookup or request (AllocationCounter.swift).
//
// `soak` (SoakScenario.swift) runs only when named: it checks memory, not speed, over 110,000
// request contexts (about 20 s in release), so the default run stays as quick as it was.

let scenarios = [
    "singleton", "alias", "parent", "parent3", "optional", "prototype", "graph", "injection",
    "bootstrap10000", "bootstrap100000", "concurrent", "concurrent-distinct", "concurrent-requests", "child", "child-bytype", "child-eager", "request", "request-protocols", "request-async", "request-disposable", "request-current", "backend", "bytype",
    "description10000", "allocations", "asyncSingleton", "asyncStart", "injection-default", "screen",
]
let groups = ["bootstrap": ["bootstrap10000", "bootstrap100000"]]
/// Run only when named on the command line, never by the default run.
let optInScenarios = ["soak"]

var requested = Set<String>()
for argument in CommandLine.arguments.dropFirst() {
    if let group = groups[argument] {
        requested.formUnion(group)
    } else if scenarios.contains(argument) || optInScenarios.contains(argument) {
        requested.insert(argument)
    } else {
        print("unknown scenario '\(argument)'; known: \((scenarios + optInScenarios).joined(separator: " ")) (or bootstrap)")
        exit(2)
    }
}
let chosen = requested
func wants(_ scenario: String) -> Bool {
    optInScenarios.contains(scenario) ? chosen.contains(scenario) : chosen.isEmpty || chosen.contains(scenario)
}

let report = Report()
if wants("singleton") || wants("alias") || wants("parent") { singletonLookups(report, wants) }
// After `singleton`: these measure `singleton project` alongside when it was not asked for.
if wants("parent3") { parent3Lookup(report) }
if wants("optional") { optionalLookup(report) }
if wants("prototype") { prototypeLookup(report) }
if wants("graph") { graphLookup(report) }
if wants("injection") { injection(report) }
for size in [10_000, 100_000] where wants("bootstrap\(size)") { bootstrap(report, size: size) }
if wants("concurrent") { concurrentLookups(report) }
if wants("concurrent-distinct") { concurrentDistinctLookups(report) }
if wants("concurrent-requests") { concurrentRequests(report) }
if wants("child") { childRequests(report) }
if wants("child-bytype") { childByTypeRequests(report) }
if wants("child-eager") { childEagerRequests(report) }
if wants("request") { requests(report) }
if wants("request-protocols") { protocolRequests(report) }
if wants("request-async") { asyncRequests(report) }
if wants("request-disposable") { disposableRequests(report) }
if wants("request-current") { currentRequests(report) }
if wants("backend") { backendRequests(report) }
if wants("bytype") { byTypeLookup(report) }
if wants("description10000") { descriptionOfLargeContext(report) }
if wants("allocations") { allocations(report) }
if wants("asyncSingleton") { asyncSingletonLookup(report) }
if wants("asyncStart") { asyncStart(report) }
if wants("injection-default") { injectionWithDefault(report) }
if wants("soak") { soak(report) }

/// The ratios of the rows measured.
@MainActor
func printRatios() {
print()
for scenario in scenarios where scenario != "allocations" {
    report.ratio(scenario, "project/baseline", (scenario, "project"), (scenario, "baseline"))
}
report.ratio("parent3", "project/singleton", ("parent3", "project"), ("singleton", "project"))
report.ratio("optional", "project/singleton", ("optional", "project"), ("singleton", "project"))
report.ratio("injection", "project/direct", ("injection", "project"), ("injection", "direct"))
report.ratio("concurrent", "project/1thread", ("concurrent", "project"), ("concurrent", "project-1thread"))
report.ratio("concurrent", "baseline/1thread", ("concurrent", "baseline"), ("concurrent", "baseline-1thread"))
report.ratio("concurrent", "project/arc-floor", ("concurrent", "project"), ("concurrent", "arc-floor"))
report.ratio("concurrent-distinct", "project/1thread", ("concurrent-distinct", "project"), ("concurrent-distinct", "project-1thread"))
report.ratio("concurrent-distinct", "baseline/1thread", ("concurrent-distinct", "baseline"), ("concurrent-distinct", "baseline-1thread"))
report.ratio("concurrent-requests", "project/1thread", ("concurrent-requests", "project"), ("concurrent-requests", "project-1thread"))
report.ratio("concurrent-requests", "direct/1thread", ("concurrent-requests", "direct"), ("concurrent-requests", "direct-1thread"))
report.ratio("child", "project/direct", ("child", "project"), ("child", "direct"))
report.ratio("child-bytype", "project/direct", ("child-bytype", "project"), ("child-bytype", "direct"))
report.ratio("child-bytype", "project/by-key", ("child-bytype", "project"), ("child-bytype", "by-key"))
report.ratio("child-eager", "project/direct", ("child-eager", "project"), ("child-eager", "direct"))
report.ratio("child-eager", "project/lazy", ("child-eager", "project"), ("child-eager", "lazy"))
report.ratio("request", "project/direct", ("request", "project"), ("request", "direct"))
report.ratio("request", "project/direct-kept", ("request", "project"), ("request", "direct-kept"))
report.ratio("request-protocols", "project/direct", ("request-protocols", "project"), ("request-protocols", "direct"))
report.ratio("request-protocols", "project/request", ("request-protocols", "project"), ("request", "project"))
report.ratio("request-async", "project/direct", ("request-async", "project"), ("request-async", "direct"))
report.ratio("request-async", "project/sync", ("request-async", "project"), ("request-async", "sync"))
report.ratio("request-disposable", "project/request", ("request-disposable", "project"), ("request-disposable", "request"))
report.ratio("request-current", "project/request", ("request-current", "project"), ("request-current", "request"))
report.ratio("backend", "project/direct", ("backend", "project"), ("backend", "direct"))
report.ratio("bytype", "project/direct", ("bytype", "project"), ("bytype", "direct"))
report.ratio("asyncSingleton", "project/sync", ("asyncSingleton", "project"), ("asyncSingleton", "sync"))
report.ratio("asyncSingleton", "project/async-call", ("asyncSingleton", "project"), ("asyncSingleton", "async-call"))
report.ratio("injection-default", "with-default/project", ("injection-default", "with-default"), ("injection-default", "project"))
report.ratio("asyncStart", "project/20ms", ("asyncStart", "project"), ("asyncStart", "target"))
report.ratio("asyncStart", "project/one-sleep", ("asyncStart", "project"), ("asyncStart", "one-sleep"))
report.ratio("bootstrap100000/bootstrap10000", "project", ("bootstrap100000", "project"), ("bootstrap10000", "project"), decimals: 1)
report.ratio("bootstrap100000/bootstrap10000", "baseline", ("bootstrap100000", "baseline"), ("bootstrap10000", "baseline"), decimals: 1)
report.ratio("screen", "project/sync", ("screen", "project"), ("screen", "sync"))
}

// Last: it runs on the main actor, which the main thread then serves until the scenario exits.
if wants("screen") { screenScenarioThenExit(report, finish: printRatios) }
printRatios()
