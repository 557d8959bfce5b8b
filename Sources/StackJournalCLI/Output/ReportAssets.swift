import Foundation
import StackJournalCore

/// The page's template, style and script, embedded in the binary.
enum ReportAssets {
  static let template = String(decoding: PackageResources.report_html, as: UTF8.self)
  static let style = String(decoding: PackageResources.report_css, as: UTF8.self)
  /// The page's script, joined from its parts in `Resources/`: the delta applier at the top level,
  /// where a test can call it on a page holding nothing but this script, then the other parts in
  /// this order as the body of one function, the page's, so that they share its names and keep
  /// them off the page's global object. What a part runs at once may use only what the parts
  /// before it set up; its functions may call those of any part, declared before anything runs.
  static let script =
    text(PackageResources.report_delta_js) + "(function () {\n"
    + [
      PackageResources.report_data_js,
      PackageResources.report_text_js,
      PackageResources.report_session_js,
      PackageResources.report_selection_js,
      PackageResources.report_moment_js,
      PackageResources.report_entries_js,
      PackageResources.report_overview_js,
      PackageResources.report_controls_js,
    ].map(text).joined(separator: "\n") + "})();\n"

  private static func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// A Content-Security-Policy source for an inline element's text: `sha256-<base64>`.
  static func hash(_ text: String) -> String {
    "sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString()
  }
}
