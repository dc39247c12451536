import Foundation
import HTTPTypes
import UniversalLinkKit

/// What the routes answer about one link, for both `GET /open` and `POST /resolve`.
package struct LinkAnswer: Sendable, Hashable {
    /// The matched route of `POST /resolve`'s `route` field.
    struct Route: Sendable, Hashable, Encodable {
        var pattern: String
        var parameters: [String: String]
    }

    /// The `error` object: a `LinkError.Code` name (or `invalidRequest`), its message, and the status it maps to.
    struct Failure: Sendable, Hashable, Encodable {
        var code: String
        var message: String
        /// The status of `GET /open`: ``UniversalLinkKit/LinkError/Code/responseStatus`` for a library code.
        var status: HTTPResponse.Status

        init(_ error: LinkError) {
            self.init(code: error.code, message: error.message)
        }

        init(code: LinkError.Code, message: String) {
            self.code = code.description
            self.message = message
            self.status = code.responseStatus
        }

        /// The service's own code for a request that names no usable link.
        static func invalidRequest(_ message: String) -> Failure {
            Failure(code: "invalidRequest", message: message, status: .badRequest)
        }

        private init(code: String, message: String, status: HTTPResponse.Status) {
            self.code = code
            self.message = message
            self.status = status
        }

        enum CodingKeys: String, CodingKey { case code, message }
    }

    var requestedURL: String
    var deepLinkURL: URL?
    var webLinkURL: URL?
    var isPubWeb: Bool
    var isDuplicate: Bool
    var route: Route?
    var error: Failure?

    /// The code logged and counted for the link: `resolved`, or the error's code.
    var outcome: String { error?.code ?? "resolved" }

    /// Where `GET /open` redirects: the deep link, else the web link. A link whose unsafe half was dropped
    /// (`unsafeLink` with the other half kept) still redirects to the safe half, as the library routes it.
    var location: URL? { deepLinkURL ?? webLinkURL }

    /// The status of `GET /open`: `302` with a location, else the error's status.
    var openStatus: HTTPResponse.Status {
        if location != nil { return .found }
        return error?.status ?? LinkError.Code.missingDestination.responseStatus
    }

    /// An answer for a request that names no usable URL.
    static func invalidRequest(_ requested: String, message: String) -> LinkAnswer {
        LinkAnswer(requestedURL: requested, isPubWeb: false, isDuplicate: false, error: .invalidRequest(message))
    }
}

extension LinkAnswer {
    /// `GET /open`'s error body: `{"requestedURL": str, "error": {"code": str, "message": str}}`.
    struct OpenErrorBody: Encodable {
        var requestedURL: String
        var error: Failure?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(requestedURL, forKey: .requestedURL)
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case requestedURL, error }
    }

    /// `POST /resolve`'s body: every field present, `null` where there is no value.
    struct ResolveBody: Encodable {
        var answer: LinkAnswer

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(answer.requestedURL, forKey: .requestedURL)
            try container.encode(answer.deepLinkURL?.absoluteString, forKey: .deepLinkURL)
            try container.encode(answer.webLinkURL?.absoluteString, forKey: .webLinkURL)
            try container.encode(answer.isPubWeb, forKey: .isPubWeb)
            try container.encode(answer.isDuplicate, forKey: .duplicate)
            try container.encode(answer.route, forKey: .route)
            try container.encode(answer.error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case requestedURL, deepLinkURL, webLinkURL, isPubWeb, duplicate, route, error }
    }

    /// `GET /open`'s error body as JSON.
    var openErrorJSON: Data { Self.encode(OpenErrorBody(requestedURL: requestedURL, error: error)) }

    /// `POST /resolve`'s body as JSON.
    var resolveJSON: Data { Self.encode(ResolveBody(answer: self)) }

    /// `POST /resolve`'s `400 invalidRequest` body, for a server that refuses a request before it reaches the routes
    /// (a declared body over the limit).
    ///
    /// - Parameter message: What is wrong and what to send instead.
    /// - Returns: The JSON.
    package static func invalidRequestJSON(_ message: String) -> Data {
        invalidRequest("", message: message).resolveJSON
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, booleans and nulls only: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
