extension LinkRouter {
    /// The router-wide settings JLRoutes keeps as global options.
    public struct Options: Sendable, Hashable {
        /// Whether `+` in route variables and query values becomes a space (after percent-decoding, so `%2B` does
        /// too, as JLRoutes' own tests assert). Default `true`.
        public var decodePlusSymbols: Bool
        /// Whether the URL's host is always the first path component (`myapp://host/path` and
        /// `https://www.example.com/path` alike). When `false` (the default), only a host without a dot that is not
        /// `localhost` is.
        public var alwaysTreatsHostAsPathComponent: Bool

        /// Creates options; the defaults are JLRoutes'.
        ///
        /// - Parameters:
        ///   - decodePlusSymbols: `+` to space in variables and query values.
        ///   - alwaysTreatsHostAsPathComponent: the host is always a path component.
        public init(decodePlusSymbols: Bool = true, alwaysTreatsHostAsPathComponent: Bool = false) {
            self.decodePlusSymbols = decodePlusSymbols
            self.alwaysTreatsHostAsPathComponent = alwaysTreatsHostAsPathComponent
        }
    }
}
