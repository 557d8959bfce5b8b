import Foundation
import StackStorage

/// The page's template, style and script, embedded in the binary.
enum ReportAssets {
  static let template = String(decoding: PackageResources.report_html, as: UTF8.self)
  static let style = String(decoding: PackageResources.report_css, as: UTF8.self)
  static let script = String(decoding: PackageResources.report_js, as: UTF8.self)

  /// A Content-Security-Policy source for an inline element's text: `sha256-<base64>`.
  static func hash(_ text: String) -> String {
    "sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString()
  }
}
