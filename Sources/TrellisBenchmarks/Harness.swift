import Synchronization

/// Read by `blackHole`, never 0 in practice: the branch it guards escapes the value in a way the
/// optimiser cannot see through, yet never runs, so two threads calling `blackHole` only share a
/// read-only cache line.
let blackHoleSink = Atomic<Int>(1)

/// Keeps `value` alive and escaping so the optimiser can neither delete the work that made it
/// nor put a fresh object on the stack (checked by `allocations counter-check`: a plain
/// `withExtendedLifetime` black hole lets `Logger()` be stack-allocated).
@inline(never)
func blackHole<T>(_ value: T) {
    if blackHoleSink.load(ordering: .relaxed) == 0 {
        blackHoleSink.store(Int(bitPattern: ObjectIdentifier(value as AnyObject)), ordering: .relaxed)
    }
}

/// Nanoseconds elapsed since `start`.
func nanoseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = (ContinuousClock.now - start).components
    return Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9
}

/// One contender of a scenario: how to warm it up and how to take one sample of it.
struct Contender {
    let name: String
    let warmUp: () -> Void
    let sample: () -> Double

    /// Nanoseconds per operation of `body(ops)`; warmed up with at most 1000 operations.
    static func nsPerOp(_ name: String, ops: Int, _ body: @escaping (Int) -> Void) -> Contender {
        Contender(name: name, warmUp: { body(min(ops, 1000)) }) {
            let start = ContinuousClock.now
            body(ops)
            return nanoseconds(since: start) / Double(ops)
        }
    }

    /// Milliseconds of one run of `body`; warmed up with one run.
    static func msPerRun(_ name: String, _ body: @escaping () -> Void) -> Contender {
        Contender(name: name, warmUp: body) {
            let start = ContinuousClock.now
            body()
            return nanoseconds(since: start) / 1e6
        }
    }
}

/// The median sample of each contender over `rounds` rounds, after warming each up once.
///
/// Rounds interleave the contenders (and rotate which goes first), so a burst of load from
/// other processes on this shared machine hits all of them alike instead of one.
func medians(rounds: Int, _ contenders: [Contender]) -> [Double] {
    for contender in contenders { contender.warmUp() }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for round in 0..<rounds {
        for step in 0..<contenders.count {
            let index = (round + step) % contenders.count
            samples[index].append(contenders[index].sample())
        }
    }
    return samples.map(median)
}

func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted[sorted.count / 2]
}

/// `value` with `decimals` digits after the point (no Foundation needed).
func formatted(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let units = Int(scaled)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(units)" }
    let fraction = String(units % scale)
    return "\(sign)\(units / scale).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

/// The rows measured so far, printed as they come: `scenario contender value unit`.
final class Report {
    private var values: [String: Double] = [:]

    func row(_ scenario: String, _ contender: String, _ value: Double, _ unit: String, decimals: Int = 1) {
        values["\(scenario) \(contender)"] = value
        print(scenario, contender, formatted(value, decimals: decimals), unit)
    }

    /// Measures `contenders` interleaved (see `medians`) and prints one row for each.
    func measure(_ scenario: String, unit: String, decimals: Int = 1, rounds: Int = 9, _ contenders: [Contender]) {
        measure(unit: unit, decimals: decimals, rounds: rounds, contenders.map { (scenario, $0) })
    }

    /// Measures contenders of several scenarios interleaved, each row under its own scenario:
    /// how a scenario held against another scenario's row (`parent3` against `singleton
    /// project`) measures that row in the same rounds when it was not asked for.
    func measure(unit: String, decimals: Int = 1, rounds: Int = 9, _ rows: [(scenario: String, contender: Contender)]) {
        for ((scenario, contender), value) in zip(rows, medians(rounds: rounds, rows.map(\.contender))) {
            row(scenario, contender.name, value, unit, decimals: decimals)
        }
    }

    func value(_ scenario: String, _ contender: String) -> Double? {
        values["\(scenario) \(contender)"]
    }

    /// Prints `ratio <label> <name> <x>` when both rows were measured.
    func ratio(_ label: String, _ name: String, _ numerator: (String, String), _ denominator: (String, String), decimals: Int = 2) {
        guard let top = value(numerator.0, numerator.1), let bottom = value(denominator.0, denominator.1), bottom > 0 else { return }
        print("ratio", label, name, formatted(top / bottom, decimals: decimals))
    }
}
