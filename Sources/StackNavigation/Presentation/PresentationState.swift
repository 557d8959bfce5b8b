/// The state of a child feature presented by its parent (a sheet, a popover, an alert, a
/// drill-down outside a stack), or `nil` when nothing is presented: the Composable Architecture's
/// `@PresentationState`.
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var destination: Destination.State?
/// }
/// // …
/// .ifLet(\.$destination, action: \.destination) { Destination() }
/// ```
///
/// The value lives in a reference, copied on write, so a feature's state may hold a presented
/// feature of its own type. Equality and hashing are the presented state's.
@propertyWrapper
public struct PresentationState<State> {
  private final class Storage: @unchecked Sendable {
    var state: State?
    var identity: ChildIdentity?
    init(state: State?, identity: ChildIdentity?) {
      self.state = state
      self.identity = identity
    }
  }

  /// What is presented and the identity of the child `ifLet` last saw presented, behind one
  /// reference, copied on write; `nil` while nothing is presented and no identity is kept. A
  /// feature holds a presentation that presents nothing most of the time, and copying it then
  /// copies one word and retains nothing.
  private var storage: Storage?

  /// Presents `wrappedValue`, or nothing.
  public init(wrappedValue: State?) {
    self.storage = wrappedValue.map { Storage(state: $0, identity: nil) }
  }

  /// Writes what is presented and the identity, sharing no storage another copy still holds.
  private mutating func set(state: State?, identity: ChildIdentity?) {
    if state == nil, identity == nil {
      storage = nil
    } else if isKnownUniquelyReferenced(&storage) {
      storage?.state = state
      storage?.identity = identity
    } else {
      storage = Storage(state: state, identity: identity)
    }
  }

  /// The identity of the child `ifLet` last saw presented, so that a child replaced by another
  /// reducer meanwhile has its effects cancelled.
  var presentedIdentity: ChildIdentity? {
    get { storage?.identity }
    set { set(state: storage?.state, identity: newValue) }
  }

  /// The projected value, as `$destination` gives it.
  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The presented state, or `nil`.
  public var wrappedValue: State? {
    get { storage?.state }
    set { set(state: newValue, identity: storage?.identity) }
  }

  /// The presentation itself, for `ifLet(\.$destination, …)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// The presented state in one case of an enum: `$destination[case: \.settings]`. Modifying it
  /// while another case (or nothing) is presented is reported ("Can't modify unrelated case")
  /// and changes nothing.
  public subscript<Case>(
    case path: CaseKeyPath<State, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? where State: CasePathable {
    get { wrappedValue.flatMap { $0[case: path] } }
    _modify {
      yield &self[
        anyCase: AnyCasePath(path), fileID: fileID, filePath: filePath, line: line,
        column: column]
    }
  }

  /// What the case key path and case path subscripts both do.
  subscript<Case>(
    anyCase path: AnyCasePath<State, Case>,
    fileID fileID: StaticString,
    filePath filePath: StaticString,
    line line: UInt,
    column column: UInt
  ) -> Case? {
    get { wrappedValue.flatMap { path.extract(from: $0) } }
    _modify {
      let presented = wrappedValue
      var value = presented.flatMap { path.extract(from: $0) }
      let isInCase = value != nil
      yield &value
      guard isInCase else {
        return reportUnrelatedCase(
          of: presented, fileID: fileID, filePath: filePath, line: line, column: column)
      }
      wrappedValue = value.map { path.embed($0) }
    }
  }
}

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

// The storage is copied before it is written to whenever it is shared, so a value shared across
// tasks is never written to by two of them.
extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}

/// `@Presents var destination: Destination.State?` inside `@ObservableState`, as the Composable
/// Architecture writes it: the same property wrapper as ``PresentationState`` (there is no view
/// to notify here, so nothing else is needed).
public typealias Presents = PresentationState

/// What a parent's action for a presented child carries: an action of the child, or the
/// dismissal of the child — the Composable Architecture's `PresentationAction`.
///
/// Its case key paths reach through `presented` to the child's cases, as TCA's do:
/// `\.destination.settings.saveTapped` is `\.destination.presented.settings.saveTapped`.
public enum PresentationAction<Action> {
  /// Dismisses the presented child.
  case dismiss
  /// An action of the presented child.
  indirect case presented(Action)
}

extension PresentationAction: CasePathable {
  /// The case paths of a presentation action, and of its child's actions through `presented`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// `.dismiss`.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        })
    }

    /// `.presented(action)`.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case let .presented(action) = $0 else { return nil }
          return action
        })
    }

    /// A case of the child's action, through `presented`.
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction> where Action: CasePathable {
      // A case key path is immutable; it is not declared `Sendable`.
      nonisolated(unsafe) let keyPath = keyPath
      return AnyCasePath(
        embed: { .presented(keyPath($0)) },
        extract: {
          guard case let .presented(action) = $0 else { return nil }
          return action[case: keyPath]
        })
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}

// A presentation is stored as what it presents, or `null` when nothing is: a state's
// `@Presents var alert` is `"alert": null` or `"alert": {…}`. Unlike the Composable
// Architecture's, so that a presented child is journaled and restored like a stack element.
extension PresentationState: Encodable where State: Encodable {
  /// Encodes what is presented, or `null`.
  ///
  /// When the encoder's `userInfo` carries a ``StackVisitor`` and something is presented, the
  /// presentation hands what it presents to the visitor instead and encodes nothing: that is how
  /// the journal finds the presented destinations of a state.
  public func encode(to encoder: any Encoder) throws {
    if let presented = wrappedValue {
      if let visitor = stackVisitor(in: encoder.userInfo) {
        try visitor.visit(
          presented: presented, codingPath: encoder.codingPath, userInfo: encoder.userInfo)
        return
      }
      (encoder.userInfo[stackEncounterUserInfoKey] as? StackEncounter)?.met = true
    }
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes what ``encode(to:)`` wrote.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

// `{"dismiss": {}}` or `{"presented": {"_0": …}}`, as Swift writes an enum's cases.
extension PresentationAction: Codable where Action: Codable {}
