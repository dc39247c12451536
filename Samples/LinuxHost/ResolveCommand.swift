enum ResolveCommand {
    static func run(_ command: String, _ arguments: [String]) async -> Int32 { 2 }
}
