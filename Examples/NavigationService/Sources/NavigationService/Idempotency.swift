import Foundation
import HTTPTypes
import StackStorage

/// `Idempotency-Key` on action POSTs: a retry with the key of an action already in the journal
/// gets that action's result again, not a second append.
///
/// A session remembers its last ``SessionKeys/capacity`` keys in its metadata, each with the
/// sequence its action was to get and a fingerprint of the action. The record is written
/// *before* the append, and the journal decides what happened: on a retry, the action is in the
/// journal when the entry at that sequence is the same action; otherwise the first try appended
/// nothing (it failed, lost a race to another writer, or the process died before the append),
/// and the action is sent now. So a first try whose outcome the client never learnt (a lost
/// connection, a crash after the commit, a restart of the database) is resolved either way
/// without a duplicate — whether or not the service had answered it.
enum Idempotency {
  /// The request header.
  static let header = HTTPField.Name("Idempotency-Key")!
  /// The response header set on a replayed result.
  static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

  /// The key of a request: `nil` without the header; a 400 for a key that is not 1 to 128
  /// characters from `A-Z a-z 0-9 . _ : -` (the request-identifier rules).
  static func key(of headers: HTTPFields) throws -> String? {
    guard let value = headers[header] else { return nil }
    guard let key = RequestID.accepting(value) else {
      throw APIError(
        .badRequest, code: "invalidIdempotencyKey",
        message: "An Idempotency-Key is 1 to 128 characters from A-Z, a-z, 0-9, '.', '_', ':' "
          + "and '-'.")
    }
    return key
  }

  /// A fingerprint of an action: FNV-1a (64 bits) of its JSON with sorted keys, so that the same
  /// action gives the same fingerprint in every process.
  static func fingerprint(_ action: SignupWizard.Action) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in try encoder.encode(action) {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
  }

  /// Whether the journal's entry at `sequence` is `action`.
  static func journal(
    _ journal: any JournalBackend, session: SessionID, holds action: SignupWizard.Action,
    at sequence: Int64
  ) async throws -> Bool {
    guard sequence >= 1, try await journal.headSequence(session: session) >= sequence else {
      return false
    }
    var found = false
    try await journal.entries(session: session, after: sequence - 1, through: sequence) { entry in
      found =
        entry.sequence == sequence
        && (try? JSONDecoder().decode(SignupWizard.Action.self, from: entry.payload)) == action
      return false
    }
    return found
  }
}

/// What the service keeps in a session's metadata (a JSON object).
struct SessionMetadata: Codable, Equatable {
  /// The session's last idempotency keys, oldest first.
  var keys: [SessionKeys.Record] = []
  /// The owner of the session's bearer token, when tokens were on at its creation.
  var owner: String?

  /// The metadata of a session: empty when it has none; a 500 when it holds something else.
  init(_ data: Data?) throws {
    guard let data else { return }
    do {
      self = try JSONDecoder().decode(SessionMetadata.self, from: data)
    } catch {
      throw APIError(
        .internalServerError, code: "internal",
        message: "The session's metadata is not the service's.")
    }
  }

  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(self)
  }
}

/// The keys a session remembers.
enum SessionKeys {
  /// How many keys a session remembers: a retry with an older key is a new action.
  static let capacity = 64

  /// A key, the sequence its action was to get, and the action's fingerprint.
  struct Record: Codable, Equatable {
    var key: String
    var sequence: Int64
    var fingerprint: String
  }
}

extension SessionMetadata {
  /// The record of a key.
  func record(for key: String) -> SessionKeys.Record? { keys.last { $0.key == key } }

  /// Records a key (replacing an earlier record of it), forgetting the oldest beyond capacity.
  mutating func remember(_ record: SessionKeys.Record) {
    keys.removeAll { $0.key == record.key }
    keys.append(record)
    if keys.count > SessionKeys.capacity { keys.removeFirst(keys.count - SessionKeys.capacity) }
  }
}
