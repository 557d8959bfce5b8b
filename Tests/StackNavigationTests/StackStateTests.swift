import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import XCTest

final class StackStateTests: XCTestCase {
  typealias Screen = RootFeature.Path.State

  func testIDsAreGenerationalAndNeverReused() {
    var stack = StackState<Int>([10, 11, 12])
    XCTAssertEqual(stack.ids, [0, 1, 2])
    stack.pop(from: 1)
    XCTAssertEqual(stack.ids, [0])
    stack.append(13)
    stack.popLast()
    stack.append(14)
    XCTAssertEqual(stack.ids, [0, 4])
    XCTAssertEqual(stack.nextID, 5)
    stack.removeAll()
    stack.append(15)
    XCTAssertEqual(stack.ids, [5])
    stack.append(16)
    stack.removeAll(where: { $0 == 15 })
    XCTAssertEqual(stack.ids, [6])
    stack.append(17)
    XCTAssertEqual(stack.ids, [6, 7])
  }

  func testCollectionOperationsThatBuildAStackKeepIDs() {
    var stack = StackState<Int>([10, 11, 12, 13])
    stack.pop(from: 1)  // ids [#0], next #4
    stack.append(14)  // [#0, #4]
    let filtered = stack.filter { _ in true }
    XCTAssertEqual(filtered.ids, [0, 4])
    XCTAssertEqual(filtered.nextID, 5)
    XCTAssertEqual(stack.filter { $0 == 14 }.ids, [4])
    let prepended = [9] + stack
    XCTAssertEqual(Array(prepended), [9, 10, 14])
    XCTAssertEqual(prepended.ids, [5, 0, 4])
    let appended = stack + [15]
    XCTAssertEqual(appended.ids, [0, 4, 5])
    var added = stack
    added += [16, 17]
    XCTAssertEqual(added.ids, [0, 4, 5, 6])
  }

  func testSettingAnIDPoppedEarlierPutsItBackAndKeepsTheNextID() {
    var stack = StackState<Int>([1, 2, 3])
    stack.pop(from: 1)
    let issues = collectIssues { stack[id: 1] = 5 }
    XCTAssertEqual(issues, [])
    XCTAssertEqual(stack.ids, [0, 1])
    XCTAssertEqual(Array(stack), [1, 5])
    XCTAssertEqual(stack.nextID, 3)
    stack.append(6)
    XCTAssertEqual(stack.ids, [0, 1, 3], "append never hands out an ID twice")
  }

  func testHugeIDsAreRefused() {
    XCTAssertThrowsError(
      try JSONDecoder().decode(
        StackState<Int>.self,
        from: Data(#"{"elements":[],"nextID":9223372036854775807}"#.utf8))
    ) {
      XCTAssertTrue("\($0)".contains("at most 9007199254740992"), "\($0)")
    }
    var stack = StackState<Int>()
    let issues = collectIssues { stack[id: StackElementID(generation: Int.max)] = 1 }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(stack.isEmpty)
  }

  func testCopyHandsOutTheSameNextID() {
    var original = StackState<Int>([1, 2])
    var copy = original
    original.append(3)
    copy.append(4)
    XCTAssertEqual(original.ids, copy.ids)
  }

  func testSubscriptByID() {
    var stack: StackState<String> = ["a", "b", "c"]
    XCTAssertEqual(stack[id: 1], "b")
    XCTAssertNil(stack[id: 7])
    stack[id: 1] = "B"
    XCTAssertEqual(Array(stack), ["a", "B", "c"])
    stack[id: 1]?.append("!")
    XCTAssertEqual(stack[id: 1], "B!")
    stack[id: 0] = nil
    XCTAssertEqual(stack.ids, [1, 2])
    stack[id: 9] = "z"
    XCTAssertEqual(stack.ids, [1, 2, 9])
    XCTAssertEqual(stack.nextID, 10)

    // Modifying in place keeps the element's position and ID; setting nil while modifying
    // removes it; modifying a missing ID adds nothing unless a value is set.
    func modify(_ value: inout String?, _ body: (inout String?) -> Void) { body(&value) }
    modify(&stack[id: 2]) { $0? += "?" }
    XCTAssertEqual(Array(stack), ["B!", "c?", "z"])
    XCTAssertEqual(stack.ids, [1, 2, 9])
    modify(&stack[id: 2]) { $0 = nil }
    XCTAssertEqual(stack.ids, [1, 9])
    modify(&stack[id: 4]) { _ in }
    XCTAssertEqual(stack.ids, [1, 9])
  }

  func testSubscriptByIDAndCase() {
    var stack = StackState<Screen>([.counter(.init(count: 1)), .numberFact(.init(number: 7))])
    XCTAssertEqual(stack[id: 0, case: \.counter]?.count, 1)
    XCTAssertNil(stack[id: 1, case: \.counter])
    stack[id: 0, case: \.counter]?.count = 2
    XCTAssertEqual(stack[id: 0], .counter(.init(count: 2)))
    let issues = collectIssues { stack[id: 1, case: \.counter]?.count = 99 }
    XCTAssertEqual(issues, [#"Can't modify unrelated case "numberFact""#])
    XCTAssertEqual(stack[id: 1], .numberFact(.init(number: 7)))
    stack[id: 0, case: \.counter] = nil
    XCTAssertEqual(stack.ids, [1])
    XCTAssertEqual(stack.nextID, 2, "removing through the case subscript keeps the next ID")
    let missing = collectIssues { stack[id: 5, case: \.counter] = .init(count: 1) }
    XCTAssertEqual(missing, ["Can't modify unrelated case"])
    XCTAssertEqual(stack.ids, [1])
  }

  func testPops() {
    var stack: StackState<Int> = [0, 1, 2, 3]
    XCTAssertTrue(stack.pop(to: 1))
    XCTAssertEqual(stack.ids, [0, 1])
    XCTAssertFalse(stack.pop(to: 3))
    XCTAssertFalse(stack.pop(from: 3))
    XCTAssertEqual(stack.popLast(), 1)
    XCTAssertTrue(stack.pop(from: 0))
    XCTAssertTrue(stack.isEmpty)
    XCTAssertNil(stack.popLast())
    XCTAssertEqual(stack.nextID, 4)
  }

  func testCollectionConformances() {
    var stack: StackState<Int> = [1, 2, 3]
    XCTAssertEqual(stack.count, 3)
    XCTAssertEqual(stack[1], 2)
    XCTAssertEqual(stack.map { $0 * 2 }, [2, 4, 6])
    stack.insert(9, at: 1)
    XCTAssertEqual(Array(stack), [1, 9, 2, 3])
    XCTAssertEqual(stack.ids, [0, 3, 1, 2])
    stack.remove(at: 0)
    XCTAssertEqual(stack.ids, [3, 1, 2])
    stack[0] += 1
    XCTAssertEqual(stack[id: 3], 10)
  }

  func testCoordinatorConveniences() {
    var stack: StackState<Screen> = [
      .counter(.init(count: 0)), .numberFact(.init(number: 1)), .counter(.init(count: 2)),
      .numberFact(.init(number: 3)),
    ]
    stack.goBack()
    XCTAssertEqual(stack.ids, [0, 1, 2])
    XCTAssertTrue(stack.goBackTo(\.numberFact))
    XCTAssertEqual(stack.ids, [0, 1])
    stack.append(.counter(.init(count: 5)))
    XCTAssertTrue(stack.goBackTo(where: { $0 == .counter(.init(count: 0)) }))
    XCTAssertEqual(stack.ids, [0])
    stack.append(contentsOf: [.counter(.init()), .counter(.init())])
    XCTAssertTrue(stack.goBackTo(id: 5))
    XCTAssertEqual(stack.ids, [0, 5])
    stack.goBack(10)
    XCTAssertTrue(stack.isEmpty)
    stack.append(contentsOf: [.counter(.init()), .counter(.init())])
    stack.goBackToRoot()
    XCTAssertEqual(stack.ids, [7])
  }

  func testRoutesPresentAndDismiss() throws {
    var routes = StackState<Route<Screen>>([.root(.counter(.init()))])
    routes.presentSheet(.numberFact(.init(number: 1)), embedInNavigationView: true)
    routes.push(.counter(.init(count: 2)))
    routes.presentCover(.numberFact(.init(number: 3)))
    XCTAssertTrue(routes.dismiss())
    XCTAssertEqual(routes.ids, [0, 1, 2])
    XCTAssertTrue(routes.dismiss())
    XCTAssertEqual(routes.ids, [0])
    XCTAssertFalse(routes.dismiss())

    routes.presentSheet(.counter(.init(count: 9)), embedInNavigationView: true)
    let data = try JSONEncoder().encode(routes)
    let decoded = try JSONDecoder().decode(StackState<Route<Screen>>.self, from: data)
    XCTAssertEqual(decoded, routes)
    XCTAssertEqual(decoded[id: 4], .sheet(.counter(.init(count: 9)), embedInNavigationView: true))
    XCTAssertTrue(decoded[id: 4]?.canPush ?? false)
  }

  func testCodableKeepsIDsAndNextID() throws {
    var stack = StackState<Screen>([.counter(.init(count: 42)), .counter(.init(count: 1729))])
    stack.append(.counter(.init(count: -999)))
    stack.pop(from: 1)
    let data = try JSONEncoder().encode(stack)
    var decoded = try JSONDecoder().decode(StackState<Screen>.self, from: data)
    XCTAssertEqual(decoded, stack)
    XCTAssertEqual(decoded.ids, [0])
    XCTAssertEqual(decoded.nextID, 3)
    decoded.append(.numberFact(.init(number: 1)))
    XCTAssertEqual(decoded.ids, [0, 3], "a decoded stack never reuses an ID")
  }

  func testEncodedShape() throws {
    let stack = StackState<Int>([7, 8])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(stack), as: UTF8.self)
    XCTAssertEqual(json, #"{"elements":[{"id":0,"state":7},{"id":1,"state":8}],"nextID":2}"#)
  }

  func testDecodingCorruptStacksThrowsClearErrors() {
    func decode(_ json: String) -> String? {
      do {
        _ = try JSONDecoder().decode(StackState<Int>.self, from: Data(json.utf8))
        return nil
      } catch let DecodingError.dataCorrupted(context) {
        return context.debugDescription
      } catch {
        return "\(error)"
      }
    }
    let duplicate = decode(#"{"elements":[{"id":0,"state":1},{"id":0,"state":2}],"nextID":2}"#)
    XCTAssertEqual(duplicate, "Stack element ID #0 appears more than once in the stack.")

    let tooLow = decode(#"{"elements":[{"id":0,"state":1},{"id":5,"state":2}],"nextID":5}"#)
    XCTAssertEqual(
      tooLow,
      "The stack's next ID #5 is not above its highest ID #5: it would hand out an ID a second time."
    )

    let wrongType = decode(#"{"elements":[{"id":0,"state":"one"}],"nextID":1}"#)
    XCTAssertNotNil(wrongType)
    XCTAssertTrue(wrongType!.contains("Int"), wrongType!)

    let negative = decode(#"{"elements":[{"id":-1,"state":1}],"nextID":1}"#)
    XCTAssertEqual(negative, "A stack element ID is a non-negative integer; found -1.")

    let missingNext = decode(#"{"elements":[]}"#)
    XCTAssertNotNil(missingNext)
  }

  func testDumpShowsIDElementPairs() {
    let stack = StackState<Screen>([.counter(.init(count: 3))])
    XCTAssertEqual(
      String(customDumping: stack),
      """
      [
        #0: .counter(
          CounterFeature.State(count: 3)
        )
      ]
      """
    )
  }

  func testIDPrintsAndCodesAsInteger() throws {
    let id: StackElementID = 3
    XCTAssertEqual("\(id)", "#3")
    XCTAssertEqual(String(decoding: try JSONEncoder().encode(id), as: UTF8.self), "3")
    XCTAssertLessThan(StackElementID(generation: 2), 3)
  }
  func testEmptyStacksAreEqualWhateverTheirNextIDs() {
    var popped = StackState<Int>([1, 2, 3])
    popped.removeAll()
    XCTAssertEqual(popped.nextID, 3)
    XCTAssertEqual(popped, StackState())
    XCTAssertEqual(popped.hashValue, StackState<Int>().hashValue)
    var other = StackState<Int>([1])
    other.pop(from: 0)
    XCTAssertEqual(Set([popped, other, StackState()]).count, 1)
    XCTAssertNotEqual(StackState<Int>([1]), StackState<Int>([2]))
    var moved = StackState<Int>([1, 1])
    moved.pop(from: 0)
    moved.append(1)
    XCTAssertNotEqual(moved, StackState<Int>([1]), "#2 is not #0")
  }

  func testUnrelatedCaseIsReportedWhereTheSubscriptIsWritten() {
    var stack = StackState<IntOrText>([.text("a")])
    let line = #line + 2
    let issues = collectIssuesWithLocations {
      stack[id: 0, case: \.int] = 7
    }
    XCTAssertEqual(
      issues,
      [
        CollectedIssue(
          #"Can't modify unrelated case "text""#,
          fileID: "StackNavigationTests/StackStateTests.swift", line: UInt(line))
      ])
    XCTAssertEqual(stack[id: 0], .text("a"))
  }
}
