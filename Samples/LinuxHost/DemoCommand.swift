enum DemoCommand {
    static func run(_ arguments: [String]) async -> Int32 { 0 }
}
