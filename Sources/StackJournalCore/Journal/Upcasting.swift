import Foundation

/// The chain of upcasters of a journal, applied to payloads and states as they are read.
package struct Upcasting: Sendable {
  /// The app's current payload version; `nil` reads payloads raw.
  package var currentVersion: Int?
  package var upcasters: [PayloadUpcaster]

  package init(currentVersion: Int?, upcasters: [PayloadUpcaster]) {
    self.currentVersion = currentVersion
    self.upcasters = upcasters
  }

  /// The payload turned into the current version, or as stored when no version is set.
  ///
  /// `place` says where the payload comes from, for error messages.
  package func upcast(
    _ payload: Data,
    kind: PayloadUpcaster.Kind,
    type: String?,
    version: Int,
    place: @autoclosure () -> String,
    path: String?
  ) throws -> (version: Int, payload: Data) {
    guard let currentVersion, version != currentVersion else { return (version, payload) }
    guard version < currentVersion else {
      throw StorageError(
        code: .newerPayloadVersion,
        message: "\(place()) was written with payload version \(version), newer than this app's "
          + "version \(currentVersion). Update the app, or read the journal without a payload "
          + "version (raw).",
        path: path
      )
    }
    var payload = payload
    for step in version..<currentVersion {
      let matching = upcasters.filter { $0.applies(to: kind, version: step, type: type) }
      guard let upcaster = matching.max(by: { ($0.type?.count ?? -1) < ($1.type?.count ?? -1) })
      else { continue }
      do {
        payload = try upcaster.transform(payload)
      } catch {
        throw StorageError(
          code: .upcastFailed,
          message: "The upcaster from version \(step) to \(step + 1) failed on \(place()). The "
            + "stored row is unchanged; fix the upcaster.",
          path: path,
          underlying: error
        )
      }
    }
    return (currentVersion, payload)
  }
}
