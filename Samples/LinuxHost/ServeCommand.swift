enum ServeCommand {
    static func run(_ arguments: [String]) async -> Int32 { 2 }
}
