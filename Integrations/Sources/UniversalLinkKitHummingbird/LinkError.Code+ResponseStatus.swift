public import HTTPTypes
public import UniversalLinkKit

extension LinkError.Code {
    /// The HTTP status a service answers when a link ends with this code: the one mapping of `link-service`, of
    /// ``LinkRoutes`` and of the README's server example.
    ///
    /// | Status | Codes |
    /// | --- | --- |
    /// | 400 Bad Request | `notPubWebLink`: not a pub-web app link (nothing was requested) |
    /// | 403 Forbidden | `hostNotAllowed`: the policy refused the host or scheme |
    /// | 404 Not Found | `missingDestination`: the answer named no destination |
    /// | 502 Bad Gateway | `network`, `tls`, `httpStatus`, `invalidResponse`, `responseTooLarge`, `unsafeLink`: the Response Handler failed |
    /// | 503 Service Unavailable | `shuttingDown`, `cancelled` |
    /// | 504 Gateway Timeout | `timeout` |
    ///
    /// A code added to `LinkError` later maps to 502 until it has a row here.
    ///
    /// ```swift
    /// do {
    ///     let outcome = try await manager.resolve(url)
    ///     if let error = outcome.resolvedLink?.error { print(error.code.responseStatus) }
    /// } catch {
    ///     print(error.code.responseStatus)  // 400 for notPubWebLink, 503 for shuttingDown
    /// }
    /// ```
    public var responseStatus: HTTPResponse.Status {
        switch self {
        case .notPubWebLink: .badRequest
        case .hostNotAllowed: .forbidden
        case .missingDestination: .notFound
        case .timeout: .gatewayTimeout
        case .shuttingDown, .cancelled, .claimStoreUnavailable: .serviceUnavailable
        case .network, .tls, .httpStatus, .invalidResponse, .responseTooLarge, .unsafeLink: .badGateway
        default: .badGateway
        }
    }
}
