import Foundation
import StackNavigation

/// A wizard's stack as the API returns it: the element IDs, each element's case and state, and
/// the next ID the stack will hand out.
public struct StackView: Codable, Equatable, Sendable {
  public var ids: [Int]
  public var cases: [String]
  public var states: [JSONValue]
  public var nextID: Int
  public var submitted: Int

  init(_ state: SignupWizard.State) throws {
    ids = []
    cases = []
    states = []
    for id in state.path.ids {
      guard let element = state.path[id: id] else { continue }
      ids.append(id.generation)
      // A synthesized enum encoding has one key, the case: `{"name": {"_0": {…}}}`.
      guard case .object(let object) = try JSONValue(encoding: element),
        let (name, payload) = object.first, object.count == 1
      else {
        cases.append("?")
        states.append(.null)
        continue
      }
      cases.append(name)
      if case .object(let fields) = payload, fields.count == 1, let inner = fields["_0"] {
        states.append(inner)
      } else {
        states.append(payload)
      }
    }
    nextID = state.path.nextID.generation
    submitted = state.submitted
  }
}

/// The body of a response that reports a session's stack.
public struct StackResponse: Codable, Equatable, Sendable {
  public var session: String
  public var sequence: Int64
  public var stack: StackView
  /// Whether the session was opened from the journal for this request (it was not in memory).
  public var rehydrated: Bool?
}
