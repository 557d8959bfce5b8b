import Foundation
import StackNavigation

/// Follows the stacks of a state from one action to the next and tells what each action did to
/// them, encoding only what changed.
///
/// Which elements were pushed or popped follows from the stacks' IDs before and after; which of
/// the remaining ones changed follows from comparing them in memory, where they are, when the
/// element type is `Equatable`: an element whose bytes are those of the element before (one
/// the action left alone) is the same value; the others are compared with `==`. Only pushed
/// and changed elements are encoded, each once, and walked for the stacks nested in them only
/// when their encoding met one; an element equal to its previous value is neither encoded nor
/// walked (unless stacks are nested in it: their next IDs are not part of equality, so it is
/// walked, not encoded, unless they changed). Elements that are not `Equatable` are encoded and
/// their JSON compared. The whole state is never encoded here.
///
/// The rows and deltas it produces are those ``StateEncoding/encode(_:)`` and
/// ``StackDelta/between(_:_:)`` produce for the same states.
///
/// ```swift
/// let tracker = StackTracker()
/// let initial = try tracker.start(from: state)        // every stack, fully encoded
/// let step = try tracker.step(to: newState)            // what the action changed
/// // … append step.delta to the journal, then:
/// tracker.accept(step)
/// ```
public final class StackTracker: @unchecked Sendable {
  /// One stack as last seen.
  struct Tracked {
    var record: StackRecord
    var codingPath: [String]
    /// The typed stack, for comparing its elements in memory.
    var value: TypedStack
    /// The IDs of the elements with stacks nested in them.
    var hasNested: Set<StackElementID>
    /// The paths of the presentations inside each element that has no stack nested in it
    /// (under `#0` for a presentation: those inside what it presents). An element equal to
    /// its previous value presents what it presented: these records are carried over, not
    /// walked for.
    var presented = PresentedPaths()
  }

  /// The paths of the presentations inside some elements, by element ID: a list searched in
  /// order, as few elements present anything (a table hashed every element's ID on every step).
  struct PresentedPaths {
    private var entries: [(id: StackElementID, paths: [String])] = []

    var isEmpty: Bool { entries.isEmpty }

    subscript(id: StackElementID) -> [String]? {
      get {
        for entry in entries where entry.id == id { return entry.paths }
        return nil
      }
      set {
        entries.removeAll { $0.id == id }
        if let newValue { entries.append((id, newValue)) }
      }
    }
  }

  /// What one action did to the stacks, before it is accepted.
  public struct Step: Sendable {
    /// The difference between the stacks before and after.
    public var delta: StackDelta
    /// Every stack after the action, sorted by path.
    public var stacks: [StackRecord]
    /// How many elements were encoded for this step.
    public var encodedElements: Int
    /// How many elements were walked for the stacks nested in them.
    package var walkedElements: Int
    fileprivate var tracked: UncheckedBox<[String: Tracked]>
  }

  private var baseline: [String: Tracked]?
  /// The stacks the journal holds for the baseline's state, when they are not the baseline's
  /// own encoding (see ``start(from:stored:)``): the next step is taken against them.
  private var storedBaseline: [StackRecord]?
  private let elementEncoder = SortedJSONEncoder()

  /// Creates a tracker with no baseline.
  public init() {
  }

  /// Encodes every stack of `state`, makes it the baseline and returns the stacks.
  public func start<S: Encodable>(from state: S) throws -> [StackRecord] {
    let walk = StackWalk(previous: [:], encoder: elementEncoder)
    try walk.run(state)
    let stacks = try walk.sortedRecords()
    baseline = walk.current
    storedBaseline = nil
    return stacks
  }

  /// Starts from `state`, whose stacks a journal holds as `stored` (the head's stack rows).
  ///
  /// When `state` encodes to other stacks than `stored` — its elements were stored by an
  /// earlier version of the app, or restoration left something out — the first step is taken
  /// against `stored`, encoding every element after the action, so that its delta fits the
  /// journal's rows; later steps are taken against what the tracker saw.
  public func start<S: Encodable>(from state: S, stored: [StackRecord]) throws {
    let stacks = try start(from: state)
    let sortedStored = stored.sorted { $0.path < $1.path }
    storedBaseline = stacks == sortedStored ? nil : sortedStored
  }

  /// What the action that led to `state` did to the stacks since the baseline; changes
  /// nothing until ``accept(_:)``. Throws when there is no baseline.
  public func step<S: Encodable>(to state: S) throws -> Step {
    guard let baseline else {
      throw StorageError(
        code: .invalidData, message: "The stack tracker has no baseline; call start(from:) first.")
    }
    let walk = StackWalk(previous: storedBaseline == nil ? baseline : [:], encoder: elementEncoder)
    try walk.run(state)
    let after = try walk.sortedRecords()
    let before = storedBaseline ?? StackWalk.sortedRecords(baseline)
    return Step(
      delta: StackDelta.between(before, after), stacks: after,
      encodedElements: walk.encodedCount, walkedElements: walk.walkedCount,
      tracked: UncheckedBox(walk.current))
  }

  /// Makes the stacks after `step` the baseline: call once the step is in the journal.
  public func accept(_ step: Step) {
    baseline = step.tracked.value
    storedBaseline = nil
  }

  /// Forgets the baseline.
  public func reset() {
    baseline = nil
    storedBaseline = nil
  }

}

/// A value handed across concurrency domains by its only owner.
struct UncheckedBox<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A stack whose element type is known, behind a class: casting one to its type compares a
/// pointer, and copying a ``StackTracker/Tracked`` retains it (an existential's value was
/// copied through its type's witnesses, and cast through the runtime's general cast).
class TypedStack {}

final class TypedStackValue<Element: Encodable>: TypedStack {
  let stack: StackState<Element>

  init(stack: StackState<Element>) {
    self.stack = stack
  }
}

/// The routes of an array met so far, typed. Appended to in place by the walk that made it.
final class TypedRoutesValue<Screen: Encodable>: TypedStack {
  var routes: [Route<Screen>]

  init(routes: [Route<Screen>]) {
    self.routes = routes
  }
}

/// What a presentation presented when last seen, typed, with the comparison of its type (looked
/// up once, when it was first presented: a presentation left alone is compared every step).
final class TypedPresentedValue<State>: TypedStack {
  let value: State
  let equal: ElementEquality.Comparator<State>?

  init(value: State, equal: ElementEquality.Comparator<State>?) {
    self.value = value
    self.equal = equal
  }
}

/// Compares two values of a type known to be `Equatable` at run time only, where they are.
enum ElementEquality {
  typealias Comparator<E> = (UnsafePointer<E>, UnsafePointer<E>) -> Bool

  static func comparator<E>(for type: E.Type) -> Comparator<E>? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    return make(equatable, as: type)
  }

  private static func make<T: Equatable, E>(_: T.Type, as: E.Type) -> Comparator<E> {
    precondition(T.self == E.self, "The comparator's type is the element type")
    // `E` is `T` at run time. The values are compared in place: copying each out (as passing
    // them by value did) retained and released every reference they hold. Two values whose
    // bytes are the same — an element the action left alone, still sharing its buffers with
    // the one before — are the same value and encode the same, so `==` (which, derived for an
    // enum, copies both sides) runs only for the others.
    let size = MemoryLayout<T>.size
    return { left, right in
      if memcmp(left, right, size) == 0 { return true }
      return UnsafeRawPointer(left).assumingMemoryBound(to: T.self).pointee
        == UnsafeRawPointer(right).assumingMemoryBound(to: T.self).pointee
    }
  }

  /// Compares two values by value, for a caller that holds them as values.
  static func equal<E>(_ comparator: Comparator<E>, _ left: E, _ right: E) -> Bool {
    withUnsafePointer(to: left) { left in
      withUnsafePointer(to: right) { right in comparator(left, right) }
    }
  }
}
