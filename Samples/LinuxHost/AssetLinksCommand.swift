/// `linux-host assetlinks generate ...` (AssociatedDomains, issue 4).
enum AssetLinksCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.usageError("assetlinks: not implemented yet")
    }
}
