// The Composable Architecture's SyncUps at tag 1.9.3 (Examples/SyncUps/SyncUps/Dependencies/OpenSettings.swift),
// as TCA writes it, with these changes for Linux:
// * `import UIKit` and the live value that opens UIKit's settings only where UIKit is; elsewhere the live value does nothing.
import Dependencies
#if canImport(UIKit)
  import UIKit
#endif

extension DependencyValues {
  var openSettings: @Sendable () async -> Void {
    get { self[OpenSettingsKey.self] }
    set { self[OpenSettingsKey.self] = newValue }
  }

  private enum OpenSettingsKey: DependencyKey {
    typealias Value = @Sendable () async -> Void

    #if canImport(UIKit)
      static let liveValue: @Sendable () async -> Void = {
        await MainActor.run {
          UIApplication.shared.open(URL(string: UIApplication.openSettingsURLString)!)
        }
      }
    #else
      static let liveValue: @Sendable () async -> Void = {}
    #endif
  }
}
