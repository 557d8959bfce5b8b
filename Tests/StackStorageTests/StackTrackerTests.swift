import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// The incremental append path (a ``StackTracker`` computing deltas from the stacks' IDs and
/// element equality) against the reference path (the whole state encoded, its rows compared with
/// the previous ones by ``StackDelta/between(_:_:)``): same deltas, rows and snapshots.
final class StackTrackerTests: StorageTestCase {
  /// The reference computation: every stack of both states fully encoded, then compared.
  private func referenceDelta<S: Encodable>(_ before: S, _ after: S) throws -> StackDelta {
    StackDelta.between(
      try StateEncoding.encode(before).stacks, try StateEncoding.encode(after).stacks)
  }

  func testTrackerMatchesTheFullEncodingOnRandomSessions() throws {
    for seed: UInt64 in 1...12 {
      var simulation = TrackerSimulation(seed: seed)
      let tracker = StackTracker()
      XCTAssertEqual(
        try tracker.start(from: simulation.root), try StateEncoding.encode(simulation.root).stacks)
      for index in 0..<250 {
        let before = simulation.root
        let operation = simulation.step()
        let step = try tracker.step(to: simulation.root)
        let expected = try referenceDelta(before, simulation.root)
        XCTAssertEqual(step.delta, expected, "seed \(seed), step \(index): \(operation)")
        XCTAssertEqual(
          step.stacks, try StateEncoding.encode(simulation.root).stacks,
          "seed \(seed), step \(index): \(operation)")
        tracker.accept(step)
      }
    }
  }

  func testAnUnacceptedStepLeavesTheBaseline() throws {
    var simulation = TrackerSimulation(seed: 99)
    let tracker = StackTracker()
    _ = try tracker.start(from: simulation.root)
    let start = simulation.root
    for _ in 0..<30 { _ = simulation.step() }
    _ = try tracker.step(to: simulation.root)  // not accepted: the append failed, say
    let step = try tracker.step(to: simulation.root)
    XCTAssertEqual(step.delta, try referenceDelta(start, simulation.root))
  }

  func testUnchangedElementsAreNotEncoded() throws {
    var root = Root()
    for index in 0..<30 { root.tabA.append(.counter(Counter(count: index))) }
    let tracker = StackTracker()
    _ = try tracker.start(from: root)
    let id = root.tabA.ids[3]
    root.tabA[id: id] = .counter(Counter(count: 1000))
    let step = try tracker.step(to: root)
    XCTAssertEqual(step.encodedElements, 1)
    XCTAssertEqual(step.delta.changes.map(\.changed.count), [1])
  }

  /// An element the action left alone is the same bytes as before and is not compared with `==`
  /// nor encoded, whatever its `==` says; an element changed to a value `==` calls equal to the
  /// old one is not encoded either, and one changed otherwise is.
  func testElementsAreComparedInPlaceBytesFirstThenByEquality() throws {
    // No padding between the stored properties: a copy need not copy padding bytes, and bytes
    // that differ there only send the comparison on to `==`.
    struct Screen: Codable, Equatable {
      var title: String
      var visits: [Int]
      /// Ignored by `==`.
      var note = ""
      /// Never equal, even to itself: only the bytes can tell it was left alone.
      var neverEqual = false
      static func == (left: Screen, right: Screen) -> Bool {
        !left.neverEqual && !right.neverEqual && left.title == right.title
          && left.visits == right.visits
      }
    }
    struct Holder: Codable {
      var stack = StackState<Screen>()
    }
    var holder = Holder()
    for index in 0..<12 {
      holder.stack.append(
        Screen(title: "screen \(index)", visits: Array(0...index), neverEqual: index % 3 == 0))
    }
    let tracker = StackTracker()
    _ = try tracker.start(from: holder)
    var before = holder
    holder.stack[id: 4]?.visits.append(99)
    holder.stack[id: 5]?.note = "ignored by =="
    let step = try tracker.step(to: holder)
    XCTAssertEqual(step.encodedElements, 1, "only the element == calls changed is encoded")
    XCTAssertEqual(step.delta.changes.first?.changed.map(\.id), [4])
    tracker.accept(step)

    before = holder
    holder.stack[id: 7]?.title = "renamed"
    holder.stack[id: 8]?.neverEqual = true  // never equal now: encoded, compared by its JSON
    let next = try tracker.step(to: holder)
    XCTAssertEqual(next.encodedElements, 2)
    XCTAssertEqual(next.delta.changes.first?.changed.map(\.id), [7, 8])
    XCTAssertEqual(next.delta, try referenceDelta(before, holder))
  }

  /// A changed or pushed element is walked for nested stacks only when encoding it met one: a
  /// counter is encoded and not walked; a detail (which holds a stack) is walked, and a stack
  /// that appears inside a changed element is found, with or without a route array.
  func testAChangedElementIsWalkedOnlyWhenItsEncodingMetAStack() throws {
    struct Note: Codable, Equatable {
      var text = ""
      var inner: Detail?
      var routes: [Route<Screen>]?
    }
    struct Holder: Codable {
      var notes = StackState<Note>()
    }
    var root = Root()
    root.tabA.append(.counter(Counter(count: 1)))
    var holder = Holder()
    holder.notes.append(Note(text: "plain"))
    let tracker = StackTracker()
    _ = try tracker.start(from: root)
    let notes = StackTracker()
    _ = try notes.start(from: holder)

    var before = root
    root.tabA[id: 0] = .counter(Counter(count: 2))
    root.tabA.append(.home)
    var step = try tracker.step(to: root)
    XCTAssertEqual(step.encodedElements, 2)
    XCTAssertEqual(step.walkedElements, 0, "neither holds a stack")
    XCTAssertEqual(step.delta, try referenceDelta(before, root))
    tracker.accept(step)

    before = root
    root.tabA.append(.detail(Detail(title: "d", path: StackState([.home]))))
    step = try tracker.step(to: root)
    XCTAssertEqual(step.walkedElements, 1, "the detail holds a stack")
    XCTAssertEqual(step.stacks.map(\.path), ["tabA", "tabA[#2].detail.path", "tabB"])
    XCTAssertEqual(step.delta, try referenceDelta(before, root))
    tracker.accept(step)

    var previous = holder
    holder.notes[id: 0]?.text = "still plain"
    var noteStep = try notes.step(to: holder)
    XCTAssertEqual(noteStep.walkedElements, 0)
    notes.accept(noteStep)
    previous = holder
    holder.notes[id: 0]?.inner = Detail(title: "inner", path: StackState([.home, .home]))
    noteStep = try notes.step(to: holder)
    XCTAssertEqual(noteStep.walkedElements, 1, "a stack appeared inside the changed element")
    XCTAssertEqual(noteStep.delta, try referenceDelta(previous, holder))
    XCTAssertEqual(noteStep.stacks.map(\.path), ["notes", "notes[#0].inner.path"])
    notes.accept(noteStep)
    previous = holder
    holder.notes[id: 0]?.inner = nil
    holder.notes[id: 0]?.routes = [.root(.home, embedInNavigationView: true), .push(.home)]
    noteStep = try notes.step(to: holder)
    XCTAssertEqual(noteStep.walkedElements, 1, "routes in an array are a stack too")
    XCTAssertEqual(noteStep.delta, try referenceDelta(previous, holder))
    XCTAssertEqual(noteStep.stacks.map(\.path), ["notes", "notes[#0].routes"])
  }

  func testElementsThatAreNotEquatableAreComparedByTheirJSON() throws {
    struct Plain: Codable {
      var text: String
    }
    struct Holder: Codable {
      var stack = StackState<Plain>()
    }
    var holder = Holder()
    holder.stack.append(Plain(text: "a"))
    holder.stack.append(Plain(text: "b"))
    let tracker = StackTracker()
    _ = try tracker.start(from: holder)
    var previous = holder
    holder.stack[id: 0] = Plain(text: "changed")
    holder.stack.append(Plain(text: "c"))
    let step = try tracker.step(to: holder)
    XCTAssertEqual(step.delta, try referenceDelta(previous, holder))
    XCTAssertEqual(step.delta.changes.first?.changed.map(\.id), [0])
    tracker.accept(step)
    previous = holder
    let same = try tracker.step(to: holder)
    XCTAssertTrue(same.delta.isEmpty)
    XCTAssertEqual(same.delta, try referenceDelta(previous, holder))
  }

  func testANestedStackWhoseNextIDMovedChangesItsElementThoughItIsEqual() throws {
    var root = Root()
    root.tabA.append(.detail(Detail(title: "d")))
    let tracker = StackTracker()
    _ = try tracker.start(from: root)
    let before = root
    // A push and a pop in one action: the element may compare equal (when equality ignores the
    // next ID, as the design allows), but its JSON and the nested stack's next ID differ.
    guard case .detail(var detail) = root.tabA[id: 0] else { return XCTFail("no detail") }
    detail.path.append(.home)
    detail.path.removeLast()
    root.tabA[id: 0] = .detail(detail)
    let step = try tracker.step(to: root)
    let expected = try referenceDelta(before, root)
    XCTAssertFalse(expected.isEmpty)
    XCTAssertEqual(step.delta, expected)
  }

  func testDeltaAppendsWriteTheSameRowsAsWholeStateAppends() async throws {
    let options = SQLiteJournal.Options(snapshotInterval: 7)
    let reference = try makeJournal(.onDisk, options: options)
    let incremental = try makeJournal(.onDisk, options: options)
    for seed: UInt64 in [3, 4, 5] {
      var simulation = TrackerSimulation(seed: seed)
      let session = SessionID("s\(seed)")
      let date = Date(timeIntervalSince1970: 1_750_000_000)
      for journal in [reference, incremental] {
        _ = try journal.createSession(
          session, initial: try StateEncoding.encode(simulation.root), version: 1,
          metadata: nil, forkedFrom: nil, at: date)
      }
      let tracker = StackTracker()
      _ = try tracker.start(from: simulation.root)
      for sequence in 1...120 {
        let operation = simulation.step()
        let payload = Data(#"{"operation":"\#(operation)"}"#.utf8)
        let encoded = try StateEncoding.encode(simulation.root)
        let recordedAt = date.addingTimeInterval(Double(sequence))
        _ = try await reference.append(
          session: session, expectedSequence: Int64(sequence - 1),
          JournalEntryDraft(
            type: operation, version: 1, payload: payload, state: encoded,
            recordedAt: recordedAt))
        let step = try tracker.step(to: simulation.root)
        let due = incremental.snapshotDue(at: Int64(sequence))
        _ = try await incremental.append(
          session: session, expectedSequence: Int64(sequence - 1),
          JournalEntryDelta(
            type: operation, version: 1, payload: payload, delta: step.delta,
            snapshot: due ? EncodedState(json: encoded.json, stacks: step.stacks) : nil,
            recordedAt: recordedAt))
        tracker.accept(step)
        XCTAssertEqual(
          try rows(of: incremental, session: session), try rows(of: reference, session: session),
          "seed \(seed), sequence \(sequence): \(operation)")
      }
      XCTAssertEqual(
        try tables(of: incremental, session: session), try tables(of: reference, session: session))
    }
  }

  func testADeltaThatDoesNotFitTheRowsIsRefusedAndWritesNothing() async throws {
    try await forEachBackend { journal, storage in
      var root = Root()
      root.tabA.append(.home)
      _ = try await journal.createSession("s", initial: try StateEncoding.encode(root), version: 1)
      let cases: [(String, StackChange)] = [
        ("pops an element it does not hold", StackChange(
          path: "tabA", nextID: 1, ids: [], popped: [5])),
        ("changes an element it does not hold", StackChange(
          path: "tabA", nextID: 1, ids: [0, 7],
          changed: [StoredElement(id: 7, caseName: "home", state: #"{"home":{}}"#)])),
        ("pushes an ID the stack holds", StackChange(
          path: "tabA", nextID: 1, ids: [0, 0],
          pushed: [StoredElement(id: 0, caseName: "home", state: #"{"home":{}}"#)])),
        ("moves the next ID back", StackChange(path: "tabA", nextID: 0, ids: [0])),
        ("removes a stack that does not exist", StackChange(
          path: "nowhere", nextID: 0, ids: [], removed: true)),
      ]
      for (problem, change) in cases {
        let error = await assertStorageError(.inconsistentDelta) {
          try await journal.append(
            session: "s", expectedSequence: 0,
            JournalEntryDelta(
              type: "bad", version: 1, payload: Data("{}".utf8),
              delta: StackDelta(changes: [change])))
        }
        XCTAssertNotNil(error, "\(storage): \(problem)")
        let headSequenceResult = try await journal.headSequence(session: "s")
        XCTAssertEqual(headSequenceResult, 0, "\(storage): \(problem)")
        let headStacksResult = try await journal.headStacks(session: "s")
        let encodeResult = try await StateEncoding.encode(root).stacks
        XCTAssertEqual(
          headStacksResult, encodeResult,
          "\(storage): \(problem)")
      }
    }
  }

  /// The journal row columns and stack rows that an append writes, for comparing two journals.
  private func rows(of journal: SQLiteJournal, session: SessionID) throws -> [String] {
    try journal.database.read { db in
      let entries = try Row.fetchAll(
        db,
        sql: "SELECT sequence, recorded_at, type, version, payload, delta FROM journal "
          + "WHERE session_number = (SELECT number FROM sessions WHERE id = ?) "
          + "ORDER BY sequence DESC LIMIT 1", arguments: [session.rawValue])
      let elements = try Row.fetchAll(
        db,
        sql: "SELECT path, id, position, case_name, state FROM stack_elements WHERE session = ? "
          + "ORDER BY path, id", arguments: [session.rawValue])
      let stacks = try Row.fetchAll(
        db, sql: "SELECT path, next_id FROM stacks WHERE session = ? ORDER BY path",
        arguments: [session.rawValue])
      let head = try Row.fetchAll(
        db, sql: "SELECT head_sequence FROM sessions WHERE id = ?", arguments: [session.rawValue])
      return (entries + elements + stacks + head).map(\.description)
    }
  }

  /// Every journal entry and snapshot of the session.
  private func tables(of journal: SQLiteJournal, session: SessionID) throws -> [String] {
    try journal.database.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT sequence, recorded_at, type, version, payload, delta FROM journal "
          + "WHERE session_number = (SELECT number FROM sessions WHERE id = ?) ORDER BY sequence",
        arguments: [session.rawValue]
      ).map(\.description)
        + Row.fetchAll(
          db,
          sql: "SELECT sequence, version, state, stacks, recorded_at FROM snapshots "
            + "WHERE session = ? ORDER BY sequence", arguments: [session.rawValue]
        ).map(\.description)
    }
  }
}

/// ``Simulation`` plus the operations that stress the tracker: removing an element from the
/// middle (the ones above move down), a push and a pop of a nested stack in one action (its
/// element stays equal), changing several elements at once and replacing a whole stack.
struct TrackerSimulation {
  var base: Simulation

  init(seed: UInt64) {
    base = Simulation(seed: seed)
  }

  var root: Root { base.root }

  mutating func step() -> String {
    let roll = Int.random(in: 0..<100, using: &base.random)
    switch roll {
    case 0..<8:
      guard let id = base.root.tabA.ids.dropLast().randomElement(using: &base.random) else {
        break
      }
      base.root.tabA[id: id] = nil
      return "tabA.remove(\(id))"
    case 8..<14:
      for id in base.root.tabB.ids {
        guard case .detail(var detail) = base.root.tabB[id: id] else { continue }
        detail.path.append(.home)
        detail.path.removeLast()
        base.root.tabB[id: id] = .detail(detail)
        return "tabB.nestedPushPop(\(id))"
      }
    case 14..<18:
      for id in base.root.tabA.ids {
        if case .counter(var counter) = base.root.tabA[id: id] {
          counter.count += 10
          base.root.tabA[id: id] = .counter(counter)
        }
      }
      return "tabA.incrementAll"
    case 18..<20:
      var replacement = StackState<Screen>()
      replacement.append(.detail(Detail(title: "fresh")))
      base.root.tabB = replacement
      return "tabB.replace"
    default:
      break
    }
    return base.step().type
  }
}
