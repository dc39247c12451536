extension AppSiteAssociation {
    /// Reads a file; content problems become ``diagnostics``, only an unusable file throws.
    ///
    /// ```swift
    /// let file = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/pub/acc"}]}]}}"#.utf8)
    /// // file.diagnostics is empty: nothing to report
    /// ```
    ///
    /// A file over Apple's 128 KB limit is still read, with a `tooLarge` error diagnostic.
    ///
    /// - Parameter bytes: The file's bytes (a `String`'s `utf8` view will do).
    /// - Throws: ``AssociationError`` (``AssociationError/Code-swift.struct/unreadableFile``) when the bytes are
    ///   over the reader's hard size limit (8 MiB), nested deeper than 64 levels, not JSON, or not a JSON object;
    ///   its `diagnostics` say where.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(AssociationError) {
        try self.init(parsing: bytes, configuration: Configuration())
    }

    /// Reads a file under other size and depth limits than the defaults (tests reach the limits with small files).
    package init<Bytes: Collection<UInt8>>(parsing bytes: Bytes, configuration: Configuration)
    throws(AssociationError) {
        var reader = AssociationReader(configuration: configuration)
        guard let file = reader.read(bytes) else {
            let diagnostics = reader.sortedDiagnostics
            let first = diagnostics.first { $0.severity == .error }?.message ?? "unreadable file"
            throw AssociationError(
                code: .unreadableFile,
                message: "the association file cannot be read: \(first)",
                diagnostics: diagnostics)
        }
        self = file
    }

    /// Reads a file from a string (`AppSiteAssociation(parsing: text.utf8)` does the same).
    package init(parsing text: String, configuration: Configuration = Configuration()) throws(AssociationError) {
        try self.init(parsing: Array(text.utf8), configuration: configuration)
    }

    /// Every finding about a file, fatal or not: what `linux-host aasa check` prints, the diagnostics of the file
    /// read or of the error thrown reading it. Never throws.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - configuration: Size and depth limits.
    /// - Returns: Errors first, then warnings; empty for a clean file.
    package static func check<Bytes: Collection<UInt8>>(_ bytes: Bytes, configuration: Configuration = Configuration())
    -> [AssociationDiagnostic] {
        var reader = AssociationReader(configuration: configuration)
        _ = reader.read(bytes)
        return reader.sortedDiagnostics
    }
}
