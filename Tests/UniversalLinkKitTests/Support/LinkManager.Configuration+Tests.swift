import UniversalLinkKit

// The settings the tests vary, in one call: the public initializer takes the common ones, the rest are properties.
extension LinkManager.Configuration {
    /// These resolution settings, otherwise the defaults.
    init(resolution: Resolution, eventHandler: LinkEventHandler? = nil) {
        self.init(eventHandler: eventHandler)
        self.resolution = resolution
    }

    /// Delivery held from the start or not, otherwise the defaults.
    init(
        duplicateWindow: Duration = .seconds(2), startsPaused: Bool, executeRsysWebURL: Bool = false,
        eventHandler: LinkEventHandler? = nil
    ) {
        self.init(duplicateWindow: duplicateWindow, eventHandler: eventHandler)
        self.startsPaused = startsPaused
        self.executeRsysWebURL = executeRsysWebURL
    }
}
