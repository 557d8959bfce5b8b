import StackStorage

/// Why a session could not be restored, recorded or verified.
public struct RestorationError: Error, CustomStringConvertible, Sendable {
  /// What kind of failure this is.
  public enum Code: String, Sendable {
    /// The session's state at the snapshot does not decode into the app's state, not even
    /// with stacks cut short.
    case undecodableState
    /// The journal was written by a newer version of the app's encoding.
    case newerPayloadVersion
    /// The requested moment is outside the session's history.
    case outOfRange
    /// The state or an action could not be encoded for the journal.
    case encodingFailed
  }

  /// What kind of failure this is.
  public let code: Code
  /// What happened, where, and what to do.
  public let message: String

  public var description: String { message }
}
