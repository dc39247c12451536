import AssociatedDomains

/// `doctor campaign --manifest FILE [--assetlinks FILE] [--package P]`: the Android side of a campaign check,
/// read before anything is fetched so an unreadable file is a usage error with nothing sent.
enum CampaignAndroid {
    static func matcher(_ parsed: ParsedCommand) throws(UsageError) -> AndroidLinkMatcher? {
        let options = DoctorCommand.CampaignOptions.self
        guard let manifestFile = try parsed.value(options.manifest) else {
            if !parsed.occurrences(of: [options.assetLinks, options.package]).isEmpty {
                throw UsageError("--assetlinks and --package need --manifest")
            }
            return nil
        }
        let manifest: AndroidManifest
        do {
            manifest = try AndroidManifest(parsing: manifestFile.bytes)
        } catch {
            throw UsageError("--manifest: '\(manifestFile.path)': \(error.message)")
        }
        var assetLinks: AssetLinks?
        if let links = try parsed.value(options.assetLinks) {
            do {
                assetLinks = try AssetLinks(parsing: links.bytes)
            } catch {
                throw UsageError("--assetlinks: '\(links.path)': \(error.message)")
            }
        }
        return AndroidLinkMatcher(manifest: manifest, assetLinks: assetLinks, packageName: try parsed.value(options.package))
    }
}
