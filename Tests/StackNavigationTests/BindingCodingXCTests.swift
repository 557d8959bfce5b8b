import Foundation
import StackJournalTestSupport
import StackNavigation
import XCTest

/// `BindingCodingTests` under XCTest: a binding round-trips through its JSON, and one the
/// journal cannot name is refused.
final class BindingCodingXCTests: XCTestCase {
  func testABindingRoundTripsAndWritesTheSameState() throws {
    let action = BindingForm.Action.binding(.set(\.title, "Design review"))
    let json = try JSONEncoder().encode(action)
    let decoded = try JSONDecoder().decode(BindingForm.Action.self, from: json)
    XCTAssertEqual(decoded, action)
    XCTAssertEqual(decoded[case: \.binding.title] as String?, "Design review")
    var original = BindingForm.State(count: 2)
    var restored = original
    _ = BindingForm().reduce(into: &original, action: action)
    _ = BindingForm().reduce(into: &restored, action: decoded)
    XCTAssertEqual(restored, original)
    XCTAssertEqual(restored.title, "Design review")
  }

  func testANestedKeyPathIsRefusedWithAnErrorThatNamesIt() {
    let action = BindingForm.Action.binding(.set(\.details.title, "Inside"))
    XCTAssertThrowsError(try JSONEncoder().encode(action)) { error in
      guard case .invalidValue(_, let context)? = error as? EncodingError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(context.debugDescription.contains(".details.title"), context.debugDescription)
    }
  }

  func testAFieldThatIsNotCodableIsRefusedWithAnErrorThatNamesIt() {
    XCTAssertThrowsError(try JSONEncoder().encode(BindingAction<FocusedForm>.set(\.focus, nil))) {
      error in
      guard case .invalidValue(_, let context)? = error as? EncodingError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(context.debugDescription.contains("'focus'"), context.debugDescription)
    }
  }
}
