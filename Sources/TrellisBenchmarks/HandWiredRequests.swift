import Trellis

/// `request`'s objects made and filled by hand, from the application's made singletons: the
/// `direct` contender of `request` and `concurrent-requests`.
struct HandWiredRequests: Sendable {
    let config: Config, repository: Repository, logger: Logger
    let metrics: Metrics, clock: Clock, mailer: Mailer

    /// The singletons the requests take from `app` (made already).
    init(from app: ApplicationContext) {
        config = try! app.object("config")
        repository = try! app.object("repository")
        logger = try! app.object("logger")
        metrics = try! app.object("metrics")
        clock = try! app.object("clock")
        mailer = try! app.object("mailer")
    }

    /// Makes `count` requests by hand, numbered from `first`, keeping each one's service (as
    /// `../shared/bench/run`'s `request direct` does).
    @inline(__always)
    func run(from first: Int, count: Int) {
        for i in first..<first + count { blackHole(request(i).service) }
    }

    /// `run` with the handler itself escaping, not only its service: every object the request
    /// makes must then be made on the heap. Through `handler.service` alone the optimiser may
    /// prove the handler and the objects only it holds dead and make them on the stack or not at
    /// all (here 3 heap objects a request instead of 5; in `../shared/bench`'s binary 1), where
    /// a context makes all five.
    @inline(__always)
    func runKeepingEveryObject(from first: Int, count: Int) {
        for i in first..<first + count { blackHole(request(i)) }
    }

    /// Request `i`'s handler, its service and the request's objects made and filled by hand.
    @inline(__always)
    private func request(_ i: Int) -> HandHandler {
        let service = HandService()
        service.logger = logger; service.metrics = metrics; service.clock = clock
        service.repository = repository; service.mailer = mailer
        let handler = HandHandler()
        handler.requestID = RequestID(i); handler.user = User(); handler.unitOfWork = UnitOfWork()
        handler.service = service; handler.logger = logger; handler.config = config
        return handler
    }
}
