// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Trellis",
    // `Synchronization.Atomic` (the lock-free read path) needs these OS versions on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Trellis", targets: ["Trellis"]),
        // The `.context(_:overriding:)` Swift Testing trait; imports the toolchain's Testing.
        .library(name: "TrellisTesting", targets: ["TrellisTesting"]),
        .executable(name: "trellis-benchmarks", targets: ["TrellisBenchmarks"]),
    ],
    targets: [
        .target(
            name: "Trellis",
            dependencies: ["CTrellisThread"],
            // Async code runs on its caller's actor unless it says otherwise (`@concurrent`): a lookup, start
            // or close from the main actor does not hop off it and back (Docs/DESIGN.md).
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        // The calling thread's state as a thread-local variable, which Swift cannot declare
        // (Sources/CTrellisThread/include/CTrellisThread.h says why it is worth a C target).
        .target(name: "CTrellisThread"),
        .target(name: "TrellisTesting", dependencies: ["Trellis"]),
        .executableTarget(name: "TrellisBenchmarks", dependencies: ["Trellis"]),
        // What the test targets share: a pthread lock the thread sanitizer can see (Guarded.swift).
        .target(name: "TrellisTestSupport", path: "Tests/TrellisTestSupport"),
        .testTarget(name: "TrellisTests", dependencies: ["Trellis", "TrellisTestSupport"]),
        .testTarget(name: "TrellisTestingTests", dependencies: ["Trellis", "TrellisTesting", "TrellisTestSupport"]),
        // Built like a new Xcode app target: every type is @MainActor unless marked otherwise.
        .testTarget(
            name: "TrellisMainActorTests", dependencies: ["Trellis", "TrellisTestSupport"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
