/// Sees every ``StackState`` of a state as it is encoded, typed, and takes over the encoding of
/// its elements.
///
/// Carried in an encoder's `userInfo` under ``stackVisitorUserInfoKey``. When present, a stack's
/// `encode(to:)` hands itself to ``visit(_:codingPath:userInfo:)-(StackState<Element>,_,_)`` and encodes nothing more: the
/// visitor decides which elements to look into (for the stacks nested in them) and which to
/// encode. The storage layer uses this to record an action at the cost of what it changed:
/// elements equal to their previous value are neither encoded nor walked.
public protocol StackVisitor: AnyObject {
  /// Called for each stack met, a parent before the stacks nested in its elements.
  ///
  /// - Parameters:
  ///   - stack: The stack, with its IDs, elements and next ID.
  ///   - codingPath: The coding path of the stack in the encoded state.
  ///   - userInfo: The `userInfo` of the encoder the stack was encoded with.
  func visit<Element: Encodable>(
    _ stack: StackState<Element>,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws

  /// Called for each route that is an element of an array (a coordinator's `routes`, plain or
  /// identified), in order, a parent before the stacks nested in its screen.
  ///
  /// The routes of one array make one stack whose IDs are their positions. The visitor decides
  /// what to encode; the route's screen sits at `codingPath + route.screenCodingPath`.
  ///
  /// - Parameters:
  ///   - route: The route.
  ///   - codingPath: The coding path of the route: the array's, then the route's position.
  ///   - userInfo: The `userInfo` of the encoder the route was encoded with.
  func visit<Screen: Encodable>(
    _ route: Route<Screen>,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws

  /// Called for each ``PresentationState`` that presents something, a parent before the stacks
  /// and presentations inside what it presents.
  ///
  /// A presented destination is journaled like a stack holding one element: where it sits, the
  /// case it is in and its state. The visitor decides what to encode; the presented state sits at
  /// `codingPath` itself (a presentation encodes as what it presents). A presentation that
  /// presents nothing is not visited.
  ///
  /// - Parameters:
  ///   - presented: The presented state.
  ///   - codingPath: The coding path of the presentation in the encoded state.
  ///   - userInfo: The `userInfo` of the encoder the presentation was encoded with.
  func visit<State: Encodable>(
    presented: State,
    codingPath: [any CodingKey],
    userInfo: [CodingUserInfoKey: Any]
  ) throws
}

/// Told that a stack, or a route of an array, was encoded, when an encoder's `userInfo` carries
/// it under ``stackEncounterUserInfoKey``; unlike a ``StackVisitor`` it takes nothing over. The
/// journal encodes a changed element once, and walks it for the stacks nested in it only when
/// its encoding met one.
package final class StackEncounter {
  package var met = false
  package init() {}
}

/// The key under which an encoder's `userInfo` carries a ``StackEncounter``.
package let stackEncounterUserInfoKey = CodingUserInfoKey(
  rawValue: "StackJournal.StackEncounter")!

/// The key under which an encoder's `userInfo` carries a ``StackVisitor``, itself or in a
/// ``StackVisitorBox``.
public let stackVisitorUserInfoKey = CodingUserInfoKey(rawValue: "StackJournal.StackVisitor")!

/// A ``StackVisitor`` as an encoder's `userInfo` may carry it: behind a final class, so that a
/// value looking for one casts to a class. Casting `Any` to `any StackVisitor` looks the
/// conformance up at run time, which cost a few thousand instructions per stack and presentation
/// of every action recorded.
public final class StackVisitorBox: @unchecked Sendable {
  /// The visitor.
  public let visitor: any StackVisitor

  /// Boxes `visitor`.
  public init(_ visitor: any StackVisitor) {
    self.visitor = visitor
  }
}

/// The visitor `userInfo` carries under ``stackVisitorUserInfoKey``, boxed or not.
package func stackVisitor(in userInfo: [CodingUserInfoKey: Any]) -> (any StackVisitor)? {
  guard let value = userInfo[stackVisitorUserInfoKey] else { return nil }
  if let box = value as? StackVisitorBox { return box.visitor }
  return value as? any StackVisitor
}
