import Foundation
import GRDB
import StackNavigation

/// What ``SQLiteJournal/verifyStorage(session:maxProblemsPerSession:)`` found: the file's own
/// checks and, per session, the journal's consistency, all without the app's types.
public struct StorageVerification: Sendable {
  /// One migration the file records, compared with this build's.
  public struct MigrationCheck: Sendable, Equatable {
    /// The schema version it brings the file to.
    public var version: Int
    /// The file name, e.g. `0001_initial.sql`.
    public var name: String
    /// Whether the recorded checksum is this build's checksum of the same file.
    public var checksumMatches: Bool
    /// Whether the recorded name is this build's name of the migration of that version.
    public var nameMatches: Bool = true
    /// The recorded time it was applied, when that is not a time in the stored form.
    public var malformedAppliedAt: String? = nil

    /// Whether the record is this build's migration, with a readable time.
    public var isSound: Bool { checksumMatches && nameMatches && malformedAppliedAt == nil }
  }

  /// The schema version of the file.
  public var schemaVersion: Int
  /// The schema version this build writes.
  public var latestSchemaVersion: Int
  /// The migrations the file records.
  public var migrations: [MigrationCheck]
  /// What `PRAGMA integrity_check` and `PRAGMA foreign_key_check` report; empty when sound.
  public var fileProblems: [String]
  /// One result per session checked.
  public var sessions: [SessionVerification]

  /// Whether nothing was found.
  public var isClean: Bool {
    fileProblems.isEmpty && migrations.allSatisfy(\.isSound)
      && sessions.allSatisfy(\.isClean)
  }
}

/// The consistency of one session's rows.
public struct SessionVerification: Sendable {
  /// The session checked.
  public var session: SessionID
  /// Its head sequence.
  public var headSequence: Int64
  /// The sequence its journal starts after: its oldest snapshot.
  public var baseSequence: Int64
  /// How many journal entries were checked.
  public var checkedEntries: Int
  /// How many snapshots were compared with the journal.
  public var checkedSnapshots: Int
  /// What is wrong, in the order found; empty when the session is sound.
  public var problems: [VerificationProblem]

  /// Whether nothing was found.
  public var isClean: Bool { problems.isEmpty }
}

/// One inconsistency in a session's rows.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
  /// The kind of a problem. New kinds may be added.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    /// The kind's name, e.g. `sequenceGap`.
    public let name: String

    /// Creates a kind.
    public init(_ name: String) {
      self.name = name
    }

    /// The kind's name.
    public var description: String { name }

    /// The journal skips sequences, or does not end at the session's head.
    public static let sequenceGap = Kind("sequenceGap")
    /// The session has no snapshot to rebuild its stacks from.
    public static let snapshotMissing = Kind("snapshotMissing")
    /// A delta does not apply to the stacks before it.
    public static let inconsistentDelta = Kind("inconsistentDelta")
    /// A stack holds an ID that is not below its next generation, or holds one ID twice.
    public static let idNotBelowNextID = Kind("idNotBelowNextID")
    /// A snapshot's stacks differ from the stacks the journal rebuilds at its sequence.
    public static let snapshotMismatch = Kind("snapshotMismatch")
    /// The head's stack rows differ from the stacks the journal rebuilds at the head.
    public static let stackRowsMismatch = Kind("stackRowsMismatch")
    /// A stored value is not what its column holds: JSON that does not parse, a malformed time.
    public static let invalidData = Kind("invalidData")
    /// A snapshot's state and its stacks disagree: a stack the state holds differs from the
    /// stack recorded beside it, or one of the two lacks a stack the other has.
    public static let snapshotStateMismatch = Kind("snapshotStateMismatch")
    /// An entry's type is not the case path of its payload.
    public static let typeMismatch = Kind("typeMismatch")
  }

  /// The sequence concerned, when there is one.
  public var sequence: Int64?
  /// What kind of problem this is.
  public var kind: Kind
  /// One sentence saying what is wrong.
  public var message: String

  /// Creates a problem.
  public init(sequence: Int64?, kind: Kind, message: String) {
    self.sequence = sequence
    self.kind = kind
    self.message = message
  }

  /// `sequence N: message`, or the message alone.
  public var description: String {
    sequence.map { "sequence \($0): \(message)" } ?? message
  }
}

extension SQLiteJournal {
  /// Checks the file and the sessions' rows without the app's types.
  ///
  /// The file: SQLite's integrity and foreign-key checks, and the recorded migrations against
  /// this build's checksums. Each session, in one read transaction (a consistent view while an
  /// app appends): sequences from its oldest snapshot to its head with no gap; every delta
  /// applies to the stacks before it (pushing no ID its stack holds, never moving a next ID
  /// back) and keeps every ID below its stack's next generation; every snapshot's stacks equal
  /// the stacks rebuilt from the journal at its sequence; the stack rows equal those at the head;
  /// payloads, states and times parse. Only reads.
  ///
  /// - Parameters:
  ///   - session: The one session to check; every session when `nil`.
  ///   - maxProblemsPerSession: Stop checking a session after this many problems.
  public func verifyStorage(
    session: SessionID? = nil,
    maxProblemsPerSession: Int = 20
  ) throws -> StorageVerification {
    let (schemaVersion, migrations, fileProblems, ids) = try read("verifying the file") {
      db -> (Int, [StorageVerification.MigrationCheck], [String], [SessionID]) in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
      let known = Dictionary(
        Migration.all.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
      let migrations = rows.map { row -> StorageVerification.MigrationCheck in
        let version: Int = row[0]
        let name: String = row[1]
        let checksum: String = row[2]
        let rawAppliedAt: DatabaseValue = row[3]
        let appliedAt = String.fromDatabaseValue(rawAppliedAt) ?? "\(rawAppliedAt)"
        return .init(
          version: version, name: name, checksumMatches: known[version]?.checksum == checksum,
          nameMatches: known[version]?.name == name,
          malformedAppliedAt: Timestamp.date(from: appliedAt) == nil ? appliedAt : nil)
      }
      var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
      let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
      for row in foreignKeys.prefix(20) {
        let table: String = row[0]
        let parent: String = row[2]
        problems.append("a row of \(table) refers to a missing row of \(parent)")
      }
      if foreignKeys.count > 20 {
        problems.append("\(foreignKeys.count - 20) more rows refer to missing rows")
      }
      let ids: [SessionID]
      if let session {
        _ = try requireHead(db, session)
        ids = [session]
      } else {
        ids = try String.fetchAll(db, sql: "SELECT id FROM sessions ORDER BY created_at, id")
          .map(SessionID.init(rawValue:))
      }
      return (version, migrations, problems, ids)
    }
    var sessions: [SessionVerification] = []
    for id in ids {
      sessions.append(try verifySession(id, maxProblems: maxProblemsPerSession))
    }
    return StorageVerification(
      schemaVersion: schemaVersion,
      latestSchemaVersion: Migration.latestVersion,
      migrations: migrations,
      fileProblems: fileProblems,
      sessions: sessions
    )
  }

  private func verifySession(_ session: SessionID, maxProblems: Int) throws
    -> SessionVerification
  {
    try read("verifying session \(session)") { db in
      try verifySession(session, maxProblems: maxProblems, db)
    }
  }

  /// Checks one session's rows inside the current transaction.
  func verifySession(_ session: SessionID, maxProblems: Int, _ db: Database) throws
    -> SessionVerification
  {
    let head = try requireHead(db, session)
    var result = SessionVerification(
      session: session, headSequence: head, baseSequence: 0, checkedEntries: 0,
      checkedSnapshots: 0, problems: [])
    func problem(_ sequence: Int64?, _ kind: VerificationProblem.Kind, _ message: String) {
      result.problems.append(
        VerificationProblem(sequence: sequence, kind: kind, message: message))
    }
    var full: Bool { result.problems.count >= maxProblems }

    // The snapshots' sequences; each snapshot's stacks are read when the walk reaches it.
    let snapshotSequences = try Int64.fetchAll(
      db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    guard let base = snapshotSequences.first else {
      problem(nil, .snapshotMissing, "the session has no snapshot, not even its initial state")
      return result
    }
    result.baseSequence = base
    if base > head {
      problem(base, .sequenceGap, "the oldest snapshot is past the head \(head)")
      return result
    }
    func snapshotStacks(_ sequence: Int64) throws -> [StackRecord]? {
      let row = try Row.fetchOne(
        db,
        sql: "SELECT state, stacks, recorded_at FROM snapshots "
          + "WHERE session = ? AND sequence = ?",
        arguments: [session.rawValue, sequence])
      guard let row else { return nil }
      let state: String = row[0]
      let stateIsJSON = JSONText.isJSON(state.utf8)
      if !stateIsJSON {
        problem(sequence, .invalidData, "the snapshot's state is not valid JSON")
      }
      let time: String = row[2]
      if Timestamp.date(from: time) == nil {
        problem(sequence, .invalidData, "the snapshot's time `\(time)` is malformed")
      }
      let stacksText: String = row[1]
      guard
        let stacks = try? JSONDecoder().decode([StackRecord].self, from: Data(stacksText.utf8))
      else {
        problem(sequence, .invalidData, "the snapshot's stacks cannot be read")
        return nil
      }
      for stack in stacks {
        if let message = Self.idProblem(stack) {
          problem(sequence, .idNotBelowNextID, "in the snapshot, \(message)")
        }
      }
      if stateIsJSON, let message = StateStacks.disagreement(state: state, stacks: stacks) {
        problem(
          sequence, .snapshotStateMismatch, "the snapshot's state and stacks disagree: \(message)")
      }
      result.checkedSnapshots += 1
      return stacks
    }

    guard var stacks = try snapshotStacks(base) else { return result }
    var nextSnapshot = snapshotSequences.dropFirst().makeIterator()
    var pendingSnapshot = nextSnapshot.next()
    var expected = base + 1
    var deltasUsable = true
    let entries = try Row.fetchCursor(
      db,
      sql: "SELECT sequence, recorded_at, payload, delta, type FROM journal "
        + "WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    while let row = try entries.next(), !full {
      let sequence: Int64 = row[0]
      result.checkedEntries += 1
      if sequence <= base {
        // Entries at or below the oldest snapshot are history the snapshot already holds.
        continue
      }
      if sequence != expected {
        problem(
          sequence, .sequenceGap,
          sequence > expected
            ? "the journal skips from \(expected - 1) to \(sequence)"
            : "the journal repeats sequence \(sequence)")
        deltasUsable = false
      }
      expected = sequence + 1
      let time: String = row[1]
      if Timestamp.date(from: time) == nil {
        problem(sequence, .invalidData, "the entry's time `\(time)` is malformed")
      }
      let payload: String = row[2]
      if !JSONText.isJSON(payload.utf8) {
        problem(sequence, .invalidData, "the entry's payload is not valid JSON")
      } else if let type = String.fromDatabaseValue(row[4] as DatabaseValue),
        let message = ActionTypeCheck.mismatch(type: type, payload: payload)
      {
        problem(sequence, .typeMismatch, message)
      }
      guard deltasUsable else { continue }
      let deltaText: String = row[3]
      guard let delta = try? JSONDecoder().decode(StackDelta.self, from: Data(deltaText.utf8))
      else {
        problem(sequence, .invalidData, "the entry's delta cannot be read")
        deltasUsable = false
        continue
      }
      do {
        try delta.apply(to: &stacks)
      } catch let error as StorageError {
        problem(sequence, .inconsistentDelta, error.message)
        deltasUsable = false
        continue
      }
      while let snapshot = pendingSnapshot, snapshot <= sequence {
        pendingSnapshot = nextSnapshot.next()
        guard snapshot == sequence, let recorded = try snapshotStacks(snapshot) else { continue }
        if recorded != stacks {
          problem(
            sequence, .snapshotMismatch,
            "the snapshot's stacks differ from the journal's: "
              + Self.difference(recorded, stacks))
        }
      }
    }
    if full { return result }
    if expected <= head {
      problem(
        head, .sequenceGap,
        "the session's head is \(head) but the journal ends at \(expected - 1)")
      deltasUsable = false
    } else if expected > head + 1 {
      problem(
        expected - 1, .sequenceGap,
        "the journal runs to \(expected - 1), past the session's head \(head)")
      deltasUsable = false
    }
    let rows = try StackRows.load(db, session: session.rawValue)
    for stack in rows {
      if let message = Self.idProblem(stack) {
        problem(head, .idNotBelowNextID, "in the stack rows, \(message)")
      }
    }
    if deltasUsable, rows != stacks {
      problem(
        head, .stackRowsMismatch,
        "the stack rows differ from the journal's stacks at the head: "
          + Self.difference(stacks, rows))
    }
    return result
  }

  /// A message when a stack holds an ID twice or an ID not below its next generation.
  static func idProblem(_ stack: StackRecord) -> String? {
    var seen = Set<StackElementID>()
    for element in stack.elements {
      guard seen.insert(element.id).inserted else {
        return "the stack `\(stack.path)` holds \(element.id) twice"
      }
      if element.id >= stack.nextID {
        return "the stack `\(stack.path)` holds \(element.id), not below its next ID "
          + "\(stack.nextID)"
      }
    }
    return nil
  }

  /// A short description of how two lists of stacks differ.
  static func difference(_ expected: [StackRecord], _ found: [StackRecord]) -> String {
    let old = Dictionary(expected.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let new = Dictionary(found.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    var parts: [String] = []
    for path in Set(old.keys).union(new.keys).sorted() {
      let name = path.isEmpty ? "(root)" : path
      switch (old[path], new[path]) {
      case (nil, _?): parts.append("stack `\(name)` is extra")
      case (_?, nil): parts.append("stack `\(name)` is missing")
      case (let a?, let b?) where a != b:
        if a.nextID != b.nextID {
          parts.append("stack `\(name)` next ID \(a.nextID) vs \(b.nextID)")
        }
        if a.ids != b.ids {
          parts.append("stack `\(name)` IDs \(a.ids) vs \(b.ids)")
        } else if a.elements != b.elements {
          parts.append("stack `\(name)` element states differ")
        }
      default: break
      }
    }
    return parts.isEmpty ? "the stacks differ" : parts.joined(separator: "; ")
  }
}
