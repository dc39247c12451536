import Foundation
public import Hummingbird
import HTTPTypes
import LinkRouting
public import Logging
import NIOCore
import Prometheus
import UniversalLinkKit
import UniversalLinkKitLogging
import UniversalLinkKitMetrics

/// Builds the `link-service` application: the manager, its logging and metrics, and the HTTP routes.
///
/// `main` calls it with the configuration read from the environment; tests call it with their own and drive the
/// result with HummingbirdTesting. The manager's shutdown runs as a service of the application, after the server
/// has drained its requests.
///
/// Routes:
/// - `GET /open?url=<percent-encoded tracking link>`: `302` to the deep link, else the web link; otherwise a JSON
///   body `{"requestedURL", "error": {"code", "message"}}` with 400 (`notPubWebLink`, `invalidRequest`), 403
///   (`hostNotAllowed`), 404 (`missingDestination`), 504 (`timeout`), 503 (`shuttingDown`), 502 (`network`,
///   `httpStatus`, `invalidResponse`, `responseTooLarge`, `unsafeLink`).
/// - `POST /resolve` with `{"url": str}`: `200` and the whole result as JSON (`400` and `invalidRequest` for a body
///   that is not such an object).
/// - `GET /healthz`: `200`.
/// - `GET /metrics`: the Prometheus text exposition of the `ulk_` metrics.
///
/// - Parameters:
///   - configuration: The settings.
///   - logger: The service's logger: one `info` line per handled link, the manager's events at `debug`/`trace`.
/// - Returns: The application, ready to run (`runService()`) or test.
/// - Throws: ``LinkServiceConfiguration/Error`` when the route table file cannot be read or parsed.
public func buildApplication(
    configuration: LinkServiceConfiguration,
    logger: Logger = Logger(label: "link-service")
) throws(LinkServiceConfiguration.Error) -> some ApplicationProtocol {
    let registry = PrometheusCollectorRegistry()
    let metrics = LinkEventMetrics(factory: PrometheusMetricsFactory(registry: registry))
    let events = LinkEventLogger(logger: logger)

    var managerConfiguration = LinkManager.Configuration()
    managerConfiguration.resolution.policy.brandedDomains = configuration.brandedDomains
    managerConfiguration.resolution.timeout = configuration.timeout
    if configuration.allowsLocalHosts {
        managerConfiguration.resolution.policy.allowsLocalHosts = true
        managerConfiguration.resolution.policy.allowsHTTP = true
    }
    managerConfiguration.eventHandler = LinkEventHandler { event in
        events.log(event)
        metrics.record(event)
    }
    let manager = LinkManager(
        configuration: managerConfiguration,
        router: try configuration.routesFile.map(loadRouter(from:))
    )
    let endpoint = LinkEndpoint(manager: manager, timeout: configuration.timeout)

    let router = Router()
    router.get("/healthz") { _, _ in
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }
    router.get("/metrics") { _, _ in
        var text: [UInt8] = []
        registry.emit(into: &text)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: text))
        )
    }
    router.get("/open") { request, context in
        let answer: LinkAnswer
        if let requested = request.uri.queryParameters.get("url") {
            answer = await endpoint.answer(for: requested)
        } else {
            answer = .invalidRequest("", message: "add the tracking link as ?url=<percent-encoded URL>")
        }
        let response: Response
        if let location = answer.location {
            response = Response(status: .found, headers: [.location: location.absoluteString])
        } else {
            response = jsonResponse(answer.openErrorJSON, status: answer.openStatus)
        }
        logHandled(answer, status: response.status, endpoint: "/open", logger: context.logger)
        return response
    }
    router.post("/resolve") { request, context in
        let answer: LinkAnswer
        let body = try await request.body.collect(upTo: 64 * 1024)
        if let requested = requestedURL(in: body) {
            answer = await endpoint.answer(for: requested)
        } else {
            answer = .invalidRequest("", message: #"send a JSON object {"url": "<tracking link>"}"#)
        }
        let status: HTTPResponse.Status = answer.error?.code == "invalidRequest" ? .badRequest : .ok
        logHandled(answer, status: status, endpoint: "/resolve", logger: context.logger)
        return jsonResponse(answer.resolveJSON, status: status)
    }

    var application = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "link-service"),
        logger: logger
    )
    application.addServices(LinkManagerService(manager: manager, gracePeriod: configuration.shutdownGracePeriod))
    return application
}

/// Loads `ULK_ROUTES_FILE` into a router whose routes accept what the table says they accept.
private func loadRouter(from path: String) throws(LinkServiceConfiguration.Error) -> LinkRouter {
    let data: Data
    do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
        throw .init(variable: "ULK_ROUTES_FILE", message: "cannot read \(path): \(error.localizedDescription)")
    }
    do {
        return try RouteTable(json: data).makeRouter()
    } catch {
        throw .init(variable: "ULK_ROUTES_FILE", message: "\(path) is not a route table: \(error)")
    }
}

/// The `url` of a `{"url": str}` body, or `nil`.
private func requestedURL(in body: ByteBuffer) -> String? {
    let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
    return (object as? [String: Any])?["url"] as? String
}

private func jsonResponse(_ json: Data, status: HTTPResponse.Status) -> Response {
    Response(
        status: status,
        headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(bytes: json))
    )
}

/// The service's one line per handled link: `info`, since an application decides its own levels (swift-log's
/// guidelines), with the outcome code to grep and count.
private func logHandled(_ answer: LinkAnswer, status: HTTPResponse.Status, endpoint: String, logger: Logger) {
    logger.info(
        "link handled",
        metadata: [
            "link.outcome": .string(answer.outcome),
            "link.url": .string(answer.requestedURL.withoutCredentials),
            "link.duplicate": .stringConvertible(answer.isDuplicate),
            "http.endpoint": .string(endpoint),
            "http.status": .stringConvertible(status.code),
        ]
    )
}
