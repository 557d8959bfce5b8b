/// An error of the storage layer: what went wrong, where, and what to do about it.
///
/// Switch on ``code`` to react; show ``message`` (or the error itself) to a person.
///
/// ```swift
/// do {
///   _ = try journal.append(session: id, expectedSequence: head, draft)
/// } catch let error as StorageError where error.code == .sequenceConflict {
///   // Another writer appended first: reload the head and retry.
/// }
/// ```
public struct StorageError: Error, Sendable {
  /// What kind of failure this is.
  public var code: Code
  /// A sentence for people: what happened, where (file, session, sequence) and what to do.
  public var message: String
  /// The database file involved, if any.
  public var path: String?
  /// The error that caused this one, such as an SQLite error.
  public var underlying: (any Error)?

  /// Creates an error.
  public init(code: Code, message: String, path: String? = nil, underlying: (any Error)? = nil) {
    self.code = code
    self.message = message
    self.path = path
    self.underlying = underlying
  }
}

extension StorageError: CustomStringConvertible {
  /// The message, followed by the underlying error when there is one.
  public var description: String {
    guard let underlying else { return message }
    return "\(message) (\(underlying))"
  }
}

extension StorageError {
  /// Text read from outside — a stored row, a server, the network — on one line, without
  /// control codes, and bounded, for a message.
  package static func printable(_ text: String) -> String {
    let cleaned = String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          $0.properties.generalCategory == .control ? " " : $0
        }))
    return cleaned.count > 300 ? String(cleaned.prefix(300)) + "…" : cleaned
  }
}
