import Foundation

extension URL {
    /// The URL without its user name and password, for messages, events and logs.
    var redacted: URL {
        guard user(percentEncoded: true) != nil || password(percentEncoded: true) != nil,
              var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? URL(string: "about:blank")!
    }

    /// ``redacted``'s text.
    var redactedString: String { redacted.absoluteString }
}
