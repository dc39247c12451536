import Testing
@testable import AssociatedDomains
