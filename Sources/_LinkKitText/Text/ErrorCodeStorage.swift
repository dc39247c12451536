/// What the libraries' public error codes share: each code is a struct over a private enum (an open set of
/// static members, as `LinkError.Code`), and the enum's cases are the codes' names.
///
/// A code type lists its cases and its documented static members; its `description` is ``name``, so the name a
/// user reads is the static member's spelling and cannot drift from it.
package protocol ErrorCodeStorage: Hashable, Sendable {}

extension ErrorCodeStorage {
    /// The case's name, spelled as the code's static member: `"unreadableFile"`, `"timeout"`.
    package var name: String { String(describing: self) }
}
