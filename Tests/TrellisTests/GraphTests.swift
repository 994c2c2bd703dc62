import Foundation
import Testing
import Trellis

// MARK: Factories: an app context and a child screen context

private final class GraphClock: Sendable {}

private final class GraphMailer: Sendable {
    let clock: GraphClock
    init(clock: GraphClock) { self.clock = clock }
}

private struct GraphRequest: Sendable {
    let mailer: GraphMailer
}

private final class GraphController {
    @Inject var mailer: GraphMailer
}

private struct GraphAppFactory: ObjectFactory {
    var contextName: String { "App" }

    var definitions: Definitions {
        createEagerSingleton("clock") { GraphClock() }
        createSingleton("mailer") { r in GraphMailer(clock: try r.object("clock")) }
            .aliases("mailService")
    }
}

private struct GraphScreenFactory: ObjectFactory {
    var contextName: String { "Screen" }

    var definitions: Definitions {
        createPrototype("request") { r in GraphRequest(mailer: try r.object("mailService")) }
        createSingleton("controller") { GraphController() }
    }
}

/// Keys that need quoting in both formats.
private struct GraphQuotingFactory: ObjectFactory {
    var contextName: String { #"My "App""# }

    var definitions: Definitions {
        createSingleton(#"say "hi""#) { "hi" }
        createSingleton(#"back\slash"#) { r in try r.object(#"say "hi""#, as: String.self) }
    }
}

/// The app and screen contexts after making the controller (injecting its `mailer`) and a request.
private func graphMadeScreen() throws -> ApplicationContext {
    let app = try ApplicationContext(GraphAppFactory())
    let screen = try ApplicationContext(GraphScreenFactory(), parent: app)
    _ = try screen.object("controller", as: GraphController.self)
    _ = try screen.object("request", as: GraphRequest.self)
    return screen
}

/// The `dot` executable on `PATH`, if Graphviz is installed.
private let graphvizDot: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Runs `dot -Tcanon` on `source`: its exit status and what it printed.
private func graphRunDot(_ dot: String, on source: String) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot)
    process.arguments = ["-Tcanon"]
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(source.utf8))
    try input.fileHandleForWriting.close()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complained = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
}

/// `graph` with the start-up durations of eager singletons (` (1.234 ms)`) taken out of their
/// labels: the rest of the output is exact.
func graphWithoutDurations(_ graph: String) -> String {
    var result = ""
    var rest = Substring(graph)
    while let open = rest.firstRange(of: " (") {
        result += rest[..<open.lowerBound]
        let after = rest[open.upperBound...]
        if let close = after.firstRange(of: " ms)"), after[..<close.lowerBound].allSatisfy({ $0.isNumber || $0 == "." }) {
            rest = after[close.upperBound...]
        } else {
            result += " ("
            rest = after
        }
    }
    return result + rest
}

// MARK: Tests

/// 80 singletons, each looking up `base`: more edges than a context records without its lock.
private struct GraphManyEdgesFactory: ObjectFactory {
    var definitions: Definitions {
        createSingleton("base") { GraphClock() }
        for i in 0..<80 { createSingleton("s\(i)") { r in GraphMailer(clock: try r.object("base")) } }
    }
}

@Suite struct GraphTests {
    @Test func everyEdgeIsInTheGraphBeyondTheSixtyFourRecordedWithoutTheLock() throws {
        let context = try ApplicationContext(GraphManyEdgesFactory())
        for i in 0..<80 { _ = try context.object("s\(i)", as: GraphMailer.self) }
        let graph = context.graph()
        for i in 0..<80 { #expect(graph.contains("c0_\(i + 1) -> c0_0;")) }
    }

    @Test func edgesRecordedByManyThreadsAtOnceAreAllInTheGraph() throws {
        // Eight threads making ten singletons each: every edge lands, whichever thread took
        // which slot (Docs/Diagnostics.md, "The dependency graph").
        let context = try ApplicationContext(GraphManyEdgesFactory())
        let finished = ConcurrencyThreads.run(8) { thread in
            for i in 0..<10 { _ = try? context.object("s\(thread * 10 + i)", as: GraphMailer.self) }
        }
        #expect(finished)
        let graph = context.graph()
        for i in 0..<80 { #expect(graph.contains("c0_\(i + 1) -> c0_0;")) }
    }

    @Test func dotOfAChildContextAfterMakingItsObjectsIsExact() throws {
        let screen = try graphMadeScreen()
        #expect(graphWithoutDurations(screen.graph(.dot)) == #"""
            digraph "Screen" {
              rankdir=LR;
              node [fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              subgraph cluster_c0 {
                label="Screen";
                c0_0 [label="request", shape=ellipse, style=dashed];
                c0_1 [label="controller", shape=box];
              }
              subgraph cluster_c1 {
                label="App";
                c1_0 [label="clock", shape=box, style="bold,filled", fillcolor="#dbe9f6"];
                c1_1 [label="mailer", shape=box];
              }
              c0_1 -> c1_1 [label="mailer"];
              c0_0 -> c1_1;
              c1_1 -> c1_0;
            }

            """#)
    }

    @Test func dotIsTheDefaultFormat() throws {
        let screen = try graphMadeScreen()
        #expect(screen.graph() == screen.graph(.dot))
    }

    @Test func mermaidOfAChildContextAfterMakingItsObjectsIsExact() throws {
        let screen = try graphMadeScreen()
        #expect(graphWithoutDurations(screen.graph(.mermaid)) == #"""
            flowchart LR
              subgraph c0["Screen"]
                c0_0("request")
                c0_1["controller"]
              end
              subgraph c1["App"]
                c1_0[["clock"]]
                c1_1["mailer"]
              end
              c0_1 -->|"mailer"| c1_1
              c0_0 --> c1_1
              c1_1 --> c1_0

            """#)
    }

    @Test func graphHasNoEdgesBeforeAnythingDependentIsMade() throws {
        let app = try ApplicationContext(GraphAppFactory())
        let screen = try ApplicationContext(GraphScreenFactory(), parent: app)
        #expect(!screen.graph(.dot).contains("->"))
        #expect(!screen.graph(.mermaid).contains("-->"))
    }

    @Test func parentGraphShowsOnlyItsOwnClusterAndEdges() throws {
        let screen = try graphMadeScreen()
        let app = try #require(screen.parent)
        #expect(graphWithoutDurations(app.graph(.dot)) == #"""
            digraph "App" {
              rankdir=LR;
              node [fontname="Helvetica"];
              edge [fontname="Helvetica", fontsize=10];
              subgraph cluster_c0 {
                label="App";
                c0_0 [label="clock", shape=box, style="bold,filled", fillcolor="#dbe9f6"];
                c0_1 [label="mailer", shape=box];
              }
              c0_1 -> c0_0;
            }

            """#)
    }

    @Test func labelsWithQuotesAndBackslashesAreEscaped() throws {
        let context = try ApplicationContext(GraphQuotingFactory())
        _ = try context.object(#"back\slash"#, as: String.self)
        let dot = context.graph(.dot)
        #expect(dot.hasPrefix(#"digraph "My \"App\"" {"#))
        #expect(dot.contains(#"c0_0 [label="say \"hi\"", shape=box];"#))
        #expect(dot.contains(#"c0_1 [label="back\\slash", shape=box];"#))
        let mermaid = context.graph(.mermaid)
        #expect(mermaid.contains(#"subgraph c0["My #quot;App#quot;"]"#))
        #expect(mermaid.contains(#"c0_0["say #quot;hi#quot;"]"#))
        #expect(mermaid.contains("  c0_1 --> c0_0\n"))
    }

    @Test(.enabled(if: graphvizDot != nil, "Graphviz `dot` is not installed"))
    func dotOutputIsAcceptedByGraphviz() throws {
        let dot = try #require(graphvizDot)
        for source in [try graphMadeScreen().graph(.dot), try ApplicationContext(GraphQuotingFactory()).graph(.dot)] {
            let result = try graphRunDot(dot, on: source)
            #expect(result.status == 0, "dot rejected the graph: \(result.errors)")
            #expect(result.errors.isEmpty)
            #expect(result.output.contains("digraph"))
        }
    }
}
