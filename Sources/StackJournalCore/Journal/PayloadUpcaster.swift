import Foundation

/// Turns a journal payload or snapshot state written in version N of the app's encoding into
/// version N + 1.
///
/// Registered in `SQLiteJournal.Options.upcasters` and applied on read, step by step, up to
/// `SQLiteJournal.Options.payloadVersion`. The stored rows are never rewritten.
///
/// ```swift
/// // Version 2 renamed `count` to `value` in counter actions.
/// PayloadUpcaster(kind: .action, from: 1, type: "path.element.counter") { json in
///   try renameKey(in: json, "count", to: "value")
/// }
/// ```
///
/// A version step with no matching upcaster leaves the payload as it is.
public struct PayloadUpcaster: Sendable {
  /// What an upcaster applies to.
  public enum Kind: Sendable, Hashable {
    /// Journal payloads (actions).
    case action
    /// Snapshot states.
    case state
  }

  /// Whether the upcaster applies to actions or states.
  public var kind: Kind
  /// The version the upcaster reads; it writes `version + 1`.
  public var version: Int
  /// For actions, the type prefix it applies to, on `.` boundaries (`path.element.counter`
  /// matches `path.element.counter.incrementButtonTapped`); `nil` applies to every type. The
  /// longest matching prefix wins. Ignored for states.
  public var type: String?
  /// The transformation of the JSON payload.
  public var transform: @Sendable (Data) throws -> Data

  /// Creates an upcaster from `version` to `version + 1`.
  public init(
    kind: Kind,
    from version: Int,
    type: String? = nil,
    _ transform: @escaping @Sendable (Data) throws -> Data
  ) {
    self.kind = kind
    self.version = version
    self.type = type
    self.transform = transform
  }

  func applies(to kind: Kind, version: Int, type actionType: String?) -> Bool {
    guard self.kind == kind, self.version == version else { return false }
    guard kind == .action, let type, let actionType else { return true }
    return actionType == type || actionType.hasPrefix(type + ".")
  }
}
