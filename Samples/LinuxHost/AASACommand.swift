/// `linux-host aasa match|check|generate ...` (AssociatedDomains, issue 4).
enum AASACommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.usageError("aasa: not implemented yet")
    }
}
