import Foundation
import UniversalLinkKit

/// How one location answered, as the checks tell answers apart.
enum Answer: Sendable {
    /// `200` with a body within the cap.
    case file(TransportResponse)
    /// `200` with a body over the cap.
    case tooLarge(Oversize)
    /// A 3xx, with its `Location` when it had one.
    case redirect(status: Int, location: String?)
    /// Any other status.
    case status(Int)
    /// No answer: connection failure or deadline.
    case failed(String)
    /// The policy refused the URL; nothing was sent.
    case refused(String)

    init(_ outcome: AssociationFetcher.Outcome) {
        switch outcome {
        case .answered(let response):
            switch response.statusCode {
            case 200: self = .file(response)
            case 300..<400: self = .redirect(status: response.statusCode, location: response.headerField("Location"))
            default: self = .status(response.statusCode)
            }
        case .tooLarge(let part): self = .tooLarge(part)
        case .refused(let reason): self = .refused(reason)
        case .failed(let reason): self = .failed(reason)
        }
    }

    /// Whether the location answered `200` (with a body of any size).
    var servesFile: Bool {
        switch self {
        case .file, .tooLarge: true
        default: false
        }
    }

    /// Half a sentence: "answers 404", "could not be reached (...)".
    var summary: String {
        switch self {
        case .file: "answers 200"
        case .tooLarge(.body): "answers with a body over the cap"
        case .tooLarge(.headerBlock): "answers with a header block over the transport's cap"
        case .redirect(let status, let location): "answers \(status) to \(location ?? "no Location")"
        case .status(let status): "answers \(status)"
        case .failed(let reason): "could not be reached (\(reason))"
        case .refused(let reason): "was not fetched (\(reason))"
        }
    }

    /// Which part of an answer went over its cap.
    enum Oversize: Sendable, Hashable {
        /// The body: over the file's size limit.
        case body
        /// The header block: over the transport's cap, so the body was never read.
        case headerBlock
    }
}
