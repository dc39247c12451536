/// The order in which JLRoutes tries routes: higher priority first, then earlier registration first.
///
/// JLRoutes keeps a list and inserts each route after every route of the same or higher priority; sorting by this
/// rank gives the same list. "Less than" means "tried earlier".
struct RouteRank: Sendable, Hashable, Comparable {
    /// The route's priority.
    var priority: Int
    /// The router-wide registration sequence number.
    var sequence: Int

    /// A rank after every real route.
    static let last = RouteRank(priority: .min, sequence: .max)

    static func < (lhs: RouteRank, rhs: RouteRank) -> Bool {
        lhs.priority != rhs.priority ? lhs.priority > rhs.priority : lhs.sequence < rhs.sequence
    }
}
