import Foundation

extension String {
    /// The URL text without user and password, for logs: the text itself when it has none.
    var withoutCredentials: String {
        guard var components = URLComponents(string: self), components.user != nil || components.password != nil
        else { return self }
        components.user = nil
        components.password = nil
        return components.string ?? self
    }
}
