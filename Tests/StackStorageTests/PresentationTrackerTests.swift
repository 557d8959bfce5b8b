import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// Presented destinations through the incremental append path: the ``StackTracker``'s records
/// and deltas against the whole state encoded and compared, on random sessions that present and
/// dismiss alerts over stack elements, a sheet at the root holding a stack of its own, and alerts
/// inside the sheet.
final class PresentationTrackerTests: StorageTestCase {
  struct Page: Codable, Equatable {
    var number: Int
    @Presents var alert: AlertState<Never>?
  }

  struct Sheet: Codable, Equatable {
    var count = 0
    var path = StackState<Page>()
    @Presents var alert: AlertState<Never>?
  }

  enum Destination: Codable, Equatable {
    case sheet(Sheet)
    case confirm(AlertState<Never>)
  }

  struct AppState: Codable, Equatable {
    var path = StackState<Page>()
    @Presents var destination: Destination?
  }

  static func alert(_ title: String) -> AlertState<Never> {
    AlertState { TextState(title) }
  }

  /// One random action on `state`; its name.
  static func step(_ state: inout AppState, _ random: inout SeededGenerator) -> String {
    let ids = state.path.ids
    let someID = ids.randomElement(using: &random)
    switch Int.random(in: 0..<12, using: &random) {
    case 0 where ids.count < 6:
      state.path.append(Page(number: Int.random(in: 0..<100, using: &random)))
      return "push"
    case 1:
      guard let id = ids.last else { return "none" }
      state.path.pop(from: id)
      return "pop \(id)"
    case 2, 3:
      guard let id = someID else { return "none" }
      state.path[id: id]?.alert = alert("fact \(Int.random(in: 0..<9, using: &random))")
      return "alert over \(id)"
    case 4:
      guard let id = someID else { return "none" }
      state.path[id: id]?.alert = nil
      return "dismiss over \(id)"
    case 5:
      guard let id = someID else { return "none" }
      state.path[id: id]?.number += 1
      return "change \(id)"
    case 6:
      state.destination = .sheet(Sheet())
      return "sheet"
    case 7:
      state.destination = .confirm(alert("Reset?"))
      return "confirm"
    case 8:
      state.destination = nil
      return "dismiss destination"
    case 9, 10:
      guard case .sheet(var sheet) = state.destination else { return "none" }
      switch Int.random(in: 0..<4, using: &random) {
      case 0: sheet.count += 1
      case 1: sheet.path.append(Page(number: sheet.count))
      case 2: sheet.alert = sheet.alert == nil ? alert("Sure?") : nil
      default:
        if let id = sheet.path.ids.last { sheet.path[id: id]?.alert = alert("inner") }
      }
      state.destination = .sheet(sheet)
      return "inside the sheet"
    default:
      return "none"
    }
  }

  func testTrackerMatchesTheFullEncodingWithPresentations() throws {
    var presentedPaths: Set<String> = []
    for seed: UInt64 in 1...10 {
      var random = SeededGenerator(seed: seed)
      var state = AppState(path: [Page(number: 1), Page(number: 2)])
      let tracker = StackTracker()
      var stacks = try tracker.start(from: state)
      XCTAssertEqual(stacks, try StateEncoding.encode(state).stacks)
      for index in 0..<200 {
        let name = Self.step(&state, &random)
        let step = try tracker.step(to: state)
        let encoded = try StateEncoding.encode(state).stacks
        XCTAssertEqual(step.stacks, encoded, "seed \(seed), step \(index): \(name)")
        XCTAssertEqual(
          step.delta, StackDelta.between(stacks, encoded), "seed \(seed), step \(index): \(name)")
        try step.delta.apply(to: &stacks)
        XCTAssertEqual(stacks, encoded, "seed \(seed), step \(index): \(name)")
        tracker.accept(step)
        presentedPaths.formUnion(encoded.filter(\.isPresentation).map(\.path))
      }
    }
    // Every kind of place was presented at: over an element, at the root, inside the sheet,
    // over an element of the sheet's stack.
    XCTAssertTrue(presentedPaths.contains("path[#0].alert"), "\(presentedPaths)")
    XCTAssertTrue(presentedPaths.contains("destination"))
    XCTAssertTrue(presentedPaths.contains("destination.sheet.alert"), "\(presentedPaths)")
    XCTAssertTrue(
      presentedPaths.contains { $0.hasPrefix("destination.sheet.path[#") }, "\(presentedPaths)")
  }

  /// An action that leaves a presentation alone encodes only what it changed: the element under
  /// an open alert is compared in memory, not encoded, and the delta does not mention the alert.
  func testAnOpenAlertLeftAloneCostsNoEncoding() throws {
    var state = AppState(path: [Page(number: 1), Page(number: 2), Page(number: 3)])
    state.path[id: 1]?.alert = Self.alert("open")
    state.destination = .confirm(Self.alert("Reset?"))
    let tracker = StackTracker()
    _ = try tracker.start(from: state)
    state.path[id: 2]?.number += 1
    let step = try tracker.step(to: state)
    XCTAssertEqual(step.encodedElements, 1)
    XCTAssertEqual(step.delta.changes.map(\.path), ["path"])
    XCTAssertEqual(step.delta.changes.first?.changed.map(\.id), [2])

    // Dismissing it is a removal of its record, with the element's change.
    tracker.accept(step)
    state.path[id: 1]?.alert = nil
    let dismissal = try tracker.step(to: state).delta
    XCTAssertEqual(dismissal.changes.map(\.path), ["path", "path[#1].alert"])
    XCTAssertEqual(dismissal.changes.last?.removed, true)
    XCTAssertEqual(dismissal.changes.last?.isPresentation, true)
    XCTAssertEqual(dismissal.changes.last?.popped, [0])
  }
}
