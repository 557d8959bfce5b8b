import StackJournalCore

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
    /// A session's history no longer fully decodes, and the recording store was not allowed to
    /// continue from what does.
    case incompleteRestore
    /// The journal lacks entries between the snapshot and the requested moment (a gap, or a
    /// head past its last entry): replaying across them would show a state that never existed.
    case journalGap
  }

  /// What kind of failure this is.
  public let code: Code
  /// What happened, where, and what to do.
  public let message: String

  public var description: String { message }
}
