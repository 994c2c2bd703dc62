// README "Testing factories" quotes this message: the obvious recording test
// double is not Sendable, and a protocol the context hands across threads requires it.
protocol Mailer: AnyObject, Sendable {
    func send(_ text: String)
}

final class RecordingMailer: Mailer {
    var sent: [String] = []   // expect error: stored property 'sent' of 'Sendable'-conforming class 'RecordingMailer' is mutable
    func send(_ text: String) { sent.append(text) }
}

// Docs/Testing.md, "Doubles that record".
protocol Clock: Sendable {
    func now() -> String
}

final class CountingClock: Clock {
    var reads = 0             // expect error: stored property 'reads' of 'Sendable'-conforming class 'CountingClock' is mutable
    func now() -> String {
        reads += 1
        return "09:41"
    }
}
