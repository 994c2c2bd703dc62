// README "Testing factories" and Docs/Testing.md quote this message: the obvious recording test
// double is not Sendable, and a protocol the context hands across threads requires it.
protocol Mailer: AnyObject, Sendable {
    func send(_ text: String)
}

final class RecordingMailer: Mailer {
    var sent: [String] = []   // expect error: stored property 'sent' of 'Sendable'-conforming class 'RecordingMailer' is mutable
    func send(_ text: String) { sent.append(text) }
}
