import Trellis

/// The ten classes of `bytype` (as /work/shared/bench's `Kind`): `Config` and nine empty ones.
protocol Kind: AnyObject, Sendable { init() }
extension Config: Kind {}
final class Kind1: Kind {}
final class Kind2: Kind {}
final class Kind3: Kind {}
final class Kind4: Kind {}
final class Kind5: Kind {}
final class Kind6: Kind {}
final class Kind7: Kind {}
final class Kind8: Kind {}
final class Kind9: Kind {}
let kinds: [any Kind.Type] = [Config.self, Kind1.self, Kind2.self, Kind3.self, Kind4.self, Kind5.self, Kind6.self, Kind7.self, Kind8.self, Kind9.self]

/// 1,000 singletons of ten classes: definition `kind<i>` makes a `kinds[i % 10]`, so 100 of them
/// are `Config`s. Each definition declares its own class, as a user's would.
struct KindsFactory: ObjectFactory {
    var definitions: Definitions {
        for i in 0..<1000 { singleton("kind\(i)", of: kinds[i % 10]) }
    }

    func singleton(_ key: String, of kind: any Kind.Type) -> Definition { singleton(key, kind) }
    func singleton<K: Kind>(_ key: String, _ kind: K.Type) -> Definition { createSingleton(key) { K() } }
}

/// `bytype`: `objects(of: Config.self)` on a context of 1,000 made singletons of ten classes
/// (100 of them `Config`s).
///
/// `direct` is what a caller holding the same 1,000 objects in an `[AnyObject]` writes:
/// `compactMap { $0 as? Config }`, one dynamic cast per object and an array of the 100 hits.
func byTypeLookup(_ report: Report) {
    let context = try! ApplicationContext(KindsFactory())
    let all = context.keys.map { try! context.object($0, as: AnyObject.self) }
    precondition(try! context.objects(of: Config.self).count == 100 && all.compactMap { $0 as? Config }.count == 100)
    report.measure("bytype", unit: "ns/op", [
        .nsPerOp("direct", ops: 2_000) { n in for _ in 0..<n { blackHole(all.compactMap { $0 as? Config }) } },
        .nsPerOp("project", ops: 200) { n in for _ in 0..<n { blackHole(try! context.objects(of: Config.self)) } },
    ])
}
