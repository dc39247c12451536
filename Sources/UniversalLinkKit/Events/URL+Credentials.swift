import Foundation

extension URL {
    /// The URL without its user and password, for anything that is logged, reported or compared; the URL itself
    /// when it has neither (the common case costs one check).
    var withoutCredentials: URL {
        guard user(percentEncoded: true) != nil || password(percentEncoded: true) != nil,
              var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? self
    }

    /// Whether the URL carries a user name or a password.
    var hasCredentials: Bool {
        user(percentEncoded: true) != nil || password(percentEncoded: true) != nil
    }
}
