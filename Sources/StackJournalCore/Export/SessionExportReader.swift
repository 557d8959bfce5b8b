import Foundation
import StackNavigation

/// Reads a session export line by line and checks it.
package struct SessionExportReader {
  package let path: String
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  private var scanned = 0
  private var atEnd = false
  private(set) var lineNumber = 0
  /// The most elements a stack of the file may hold (``StackRecord/maximumElements``; tests
  /// use a small one).
  package var maximumStackElements = StackRecord.maximumElements
  /// The latest time of the entries ``forEachLine(_:_:)`` read, and the line of the entry that
  /// has it (the first such); `nil` without entries.
  package private(set) var latestEntry: (time: String, line: Int)?

  package init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw StorageError(
        code: .fileNotFound, message: "There is no file \(path) to import; check the path.",
        path: path)
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw StorageError(
        code: .io,
        message: "Cannot read \(path)\(isDirectory.boolValue ? ": it is a directory" : ""); "
          + "give the path of a session export.",
        path: path)
    }
    self.path = path
    self.handle = handle
  }

  package func close() {
    try? handle.close()
  }

  /// The next non-empty line, or `nil` at the end of the file.
  package mutating func nextLine() throws -> ArraySlice<UInt8>? {
    while true {
      if let newline = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
        lineNumber += 1
        var line = buffer[start..<newline]
        start = newline + 1
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        return line
      }
      if buffer.count - start > SessionExportFile.maximumLineBytes {
        throw StorageError(
          code: .invalidData,
          message: "Line \(lineNumber + 1) of \(path) is longer than "
            + "\(SessionExportFile.maximumLineBytes >> 20) MiB, the longest line a session export "
            + "may have: the file is not a session export. Nothing was imported.",
          path: path)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        lineNumber += 1
        var line = buffer[start...]
        start = buffer.count
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        return line
      }
      buffer.removeFirst(start)
      start = 0
      // Bytes already searched hold no newline: search only what the next read adds.
      scanned = buffer.count
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 20)
      } catch {
        throw StorageError(
          code: .io, message: "Cannot read \(path).", path: path, underlying: error)
      }
      if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
    }
  }

  package func malformed(_ problem: String) -> StorageError {
    StorageError(
      code: .invalidData,
      message: "Line \(lineNumber) of \(path) \(problem); nothing was imported.",
      path: path)
  }

  /// Reads and checks the header line.
  package mutating func header() throws -> SessionExportHeader {
    guard let line = try nextLine() else {
      throw StorageError(
        code: .invalidData,
        message: "The file \(path) is empty, not a session export; nothing was imported.",
        path: path)
    }
    let object = try parse(line)
    guard try object.string("kind") == "header",
      try object.string("format") == SessionExportHeader.format
    else {
      throw malformed(
        "is not a session export header (its `kind` should be `header` and its `format` "
          + "`\(SessionExportHeader.format)`)")
    }
    let formatVersion = try object.int("formatVersion")
    guard formatVersion >= 1 else { throw malformed("has format version \(formatVersion)") }
    guard formatVersion <= SessionExportHeader.currentFormatVersion else {
      throw StorageError(
        code: .newerSchema,
        message: "The file \(path) is a session export of format version \(formatVersion); "
          + "this build reads up to version \(SessionExportHeader.currentFormatVersion). "
          + "Verdict: impossible; import it with a newer stackjournal. Nothing was imported.",
        path: path)
    }
    let session = try object.object("session")
    var versions: ClosedRange<Int>?
    if let raw = object.members["payloadVersions"], raw != Array("null".utf8)[...] {
      let range = try parse(raw)
      versions = try range.int("min")...max(range.int("min"), range.int("max"))
    }
    var metadata: String?
    if let raw = session.members["metadata"], !raw.elementsEqual("null".utf8) {
      if let problem = JSONText.storageProblem(Data(raw)) {
        throw malformed("has session metadata that \(problem)")
      }
      metadata = String(decoding: raw, as: UTF8.self)
    }
    let headSequence = try session.int64("headSequence")
    // A file of format 1 or 2 holds no draws: none of its entries journaled any.
    let drawsFrom: Int64
    if formatVersion >= 3 {
      drawsFrom = try session.int64("drawsFrom")
    } else {
      guard session.members["drawsFrom"] == nil else {
        throw malformed(
          "has a `drawsFrom`, which a session export of format \(formatVersion) does not hold")
      }
      drawsFrom = min(headSequence, Int64.max - 1) + 1
    }
    let header = SessionExportHeader(
      formatVersion: formatVersion,
      schemaVersion: try object.int("schemaVersion"),
      exportedAt: try object.time("exportedAt"),
      session: SessionID(try session.string("id")),
      createdAt: try session.time("createdAt"),
      metadata: metadata,
      forkedFrom: try session.optionalString("forkedFrom").map(SessionID.init(rawValue:)),
      forkedAt: try session.optionalInt("forkedAt"),
      headSequence: headSequence,
      drawsJournaledFrom: drawsFrom,
      baseSequence: try session.int64("baseSequence"),
      entryCount: try object.int64("entries"),
      snapshotCount: Int(try object.int64("snapshots")),
      payloadVersions: versions)
    try check(header)
    return header
  }

  /// Refuses a header whose session a journal cannot hold as it says: the checks of the
  /// `sessions` table (`head_sequence >= 0`, `forked_at >= 0`, and a snapshot's
  /// `sequence >= 0` for the base), a fork named without its sequence or a sequence without its
  /// fork, and a head below the base.
  private func check(_ header: SessionExportHeader) throws {
    if header.baseSequence < 0 {
      throw malformed(
        "has a `baseSequence` of \(header.baseSequence); sequences start at 0, the initial state")
    }
    if header.headSequence < header.baseSequence {
      throw malformed(
        "has a `headSequence` of \(header.headSequence), below its `baseSequence` of "
          + "\(header.baseSequence)")
    }
    if header.drawsJournaledFrom < 1 || header.drawsJournaledFrom - 1 > header.headSequence {
      throw malformed(
        "has a `drawsFrom` of \(header.drawsJournaledFrom); it is a sequence from 1 through the "
          + "head plus one (\(header.headSequence) + 1)")
    }
    switch (header.forkedFrom, header.forkedAt) {
    case (nil, let sequence?):
      throw malformed(
        "has a `forkedAt` of \(sequence) but no `forkedFrom`: a fork names the session it "
          + "started from and the sequence, or neither")
    case (let source?, nil):
      throw malformed(
        "has a `forkedFrom` of \(source) but no `forkedAt`: a fork names the session it "
          + "started from and the sequence, or neither")
    case (_, let sequence?) where sequence < 0:
      throw malformed(
        "has a `forkedAt` of \(sequence); a fork starts at a sequence of 0 or more")
    default:
      break
    }
  }

  /// Reads every line after the header, walking the journal it tells with a ``DeltaWalk``, and
  /// calls `body` with each checked line; returns the stacks at the head.
  @discardableResult
  package mutating func forEachLine(
    _ header: SessionExportHeader,
    _ body: (SessionExportLine) throws -> Void
  ) throws -> [StackRecord] {
    var walk: DeltaWalk? = nil
    var entries: Int64 = 0
    var snapshots = 0
    var lastSnapshot: Int64?
    // The latest time of the entries read, and the line of the entry that has it.
    var latestEntry: (time: String, line: Int)?
    while let line = try nextLine() {
      let object = try parse(line)
      let sequence = try object.int64("sequence")
      let version = try object.int("version")
      let recordedAt = try object.string("recordedAt")
      guard Timestamp.date(from: recordedAt) != nil else {
        throw malformed("has the time `\(recordedAt)`, not one like 2025-01-31T09:30:00.000Z")
      }
      switch try object.string("kind") {
      case "snapshot":
        let state = try object.json("state")
        let stacksText = try object.json("stacks")
        guard let decoded = StackRecord.list(fromJSON: stacksText) else {
          throw malformed("has stacks that cannot be read")
        }
        for stack in decoded { try checkSize(stack) }
        try checkKeys(decoded)
        if let walk {
          guard sequence == walk.sequence else {
            throw malformed(
              "holds a snapshot at sequence \(sequence), but the journal is at \(walk.sequence)")
          }
          guard sequence != lastSnapshot else {
            throw malformed("holds a second snapshot at sequence \(sequence)")
          }
          do {
            try walk.check(snapshot: decoded)
          } catch {
            throw malformed(
              "holds a snapshot whose stacks differ from the journal's at sequence \(sequence): "
                + Self.describe(error))
          }
        } else {
          guard sequence == header.baseSequence else {
            throw malformed(
              "starts the session at sequence \(sequence), but the header says "
                + "\(header.baseSequence)")
          }
          walk = DeltaWalk(base: sequence, stacks: decoded)
        }
        lastSnapshot = sequence
        snapshots += 1
        try body(
          .snapshot(
            StoredSnapshotRow(
              sequence: sequence, version: version, state: state, stacks: stacksText,
              recordedAt: recordedAt)))
      case "entry":
        guard walk != nil else {
          throw malformed("holds an entry before the session's first snapshot")
        }
        let type = try object.string("type")
        let payload = try object.json("payload")
        let deltaText = try object.json("delta")
        let draws = try entryDraws(object, sequence: sequence, header)
        do {
          try walk?.apply(entry: sequence, delta: deltaText)
        } catch {
          throw malformed(Self.describe(error))
        }
        for stack in walk?.stacks ?? [] { try checkSize(stack) }
        entries += 1
        if latestEntry.map({ recordedAt > $0.time }) ?? true {
          latestEntry = (recordedAt, lineNumber)
        }
        try body(
          .entry(
            JournalRow(
              sequence: sequence, recordedAt: recordedAt, type: type, version: version,
              payload: payload, delta: deltaText, draws: draws)))
      case let kind:
        throw malformed("has the kind `\(kind)`; expected `snapshot` or `entry`")
      }
    }
    guard let walk else {
      throw malformed("ends the file before the session's first snapshot")
    }
    guard walk.sequence == header.headSequence, entries == header.entryCount,
      snapshots == header.snapshotCount
    else {
      throw malformed(
        "ends the file at sequence \(walk.sequence) with \(entries) entries and \(snapshots) "
          + "snapshots, but the header announces head \(header.headSequence), "
          + "\(header.entryCount) entries and \(header.snapshotCount) snapshots: the file is cut "
          + "short or was edited")
    }
    self.latestEntry = latestEntry
    return walk.stacks
  }

  /// The draws of the entry line `object` at `sequence`, checked as a journal reads them and
  /// as the journal stores them (sorted-key JSON text); `nil` when the line has none. Refuses
  /// draws that do not decode (a UUID that is not one, a kind no dependency draws, too many
  /// values, not an object), draws in a file of a format before 3, and draws of an entry before
  /// the header's `drawsFrom`.
  private func entryDraws(
    _ object: JSONObjectLine, sequence: Int64, _ header: SessionExportHeader
  ) throws -> String? {
    guard let raw = object.members["draws"], !raw.elementsEqual("null".utf8) else { return nil }
    guard header.formatVersion >= 3 else {
      throw malformed(
        "has `draws`, which a session export of format \(header.formatVersion) does not hold")
    }
    let draws: EntryDraws
    do {
      draws = try EntryDraws(json: Data(raw), place: "entry \(sequence), whose draws")
    } catch let error as DrawRecordError {
      throw malformed("is \(error.message)")
    }
    guard sequence >= header.drawsJournaledFrom else {
      throw malformed(
        "holds draws for entry \(sequence), before the header's `drawsFrom` of "
          + "\(header.drawsJournaledFrom): entries before it were written before draws were "
          + "journaled")
    }
    return draws.isEmpty ? nil : draws.journalText()
  }

  /// Refuses stacks that the keys of the `stacks` and `stack_elements` tables cannot hold: two
  /// stacks at one path (compared byte for byte, as SQLite compares them), or one ID twice in a
  /// stack. Two paths that differ only in how their characters are composed (NFC and NFD) are
  /// refused too: a state's stacks are found through Swift's `String`, which takes them for one
  /// path, and no app's state holds both (its dictionary keys would be one key).
  private func checkKeys(_ stacks: [StackRecord]) throws {
    var paths = Set<[UInt8]>()
    var alike = Set<String>()
    for stack in stacks {
      guard paths.insert(Array(stack.path.utf8)).inserted else {
        throw malformed(
          "lists the stack `\(StorageError.printable(stack.path))` twice; a state has one stack "
            + "at a path")
      }
      guard alike.insert(stack.path).inserted else {
        throw malformed(
          "lists two stacks whose paths print as `\(StorageError.printable(stack.path))` and "
            + "differ only in how their characters are composed (NFC and NFD); a state has one "
            + "stack at a path")
      }
      if let problem = StackComparison.presentationProblem(stack) { throw malformed(problem) }
      var ids = Set<StackElementID>()
      for element in stack.elements where !ids.insert(element.id).inserted {
        throw malformed(
          "holds the ID \(element.id) twice in the stack `\(StorageError.printable(stack.path))`")
      }
    }
  }

  /// Refuses a stack above ``maximumStackElements`` (``StorageError/Code/stackTooLarge``).
  private func checkSize(_ stack: StackRecord) throws {
    guard stack.elements.count > maximumStackElements else { return }
    throw StorageError(
      code: .stackTooLarge,
      message: "Line \(lineNumber) of \(path) holds the stack "
        + "`\(StorageError.printable(stack.path))` with \(stack.elements.count) elements, more "
        + "than the \(maximumStackElements) one stack may hold; nothing was imported.",
      path: path)
  }

  /// What a line does wrong, as the rest of a sentence starting "Line N of FILE".
  private static func describe(_ finding: DeltaWalk.Finding) -> String {
    switch finding {
    case .outOfSequence(let expected, let found):
      "holds sequence \(found) where \(expected) was expected"
    case .unreadableDelta: "has a delta that cannot be read"
    case .inapplicableDelta(let message): "has a delta that does not apply: \(message)"
    case .snapshotDiffers(let difference): difference
    }
  }

  private func parse(_ line: ArraySlice<UInt8>) throws -> JSONObjectLine {
    guard let object = JSONObjectLine(line) else {
      throw malformed("is not a JSON object")
    }
    return JSONObjectLine(members: object.members, reader: self)
  }
}
