import Foundation
import StackNavigation

/// A form whose fields are written by binding actions, as SyncUps' `SyncUpForm` writes its own,
/// with a `Codable` state and action so that a recording store journals it.
@Reducer
public struct BindingForm: Sendable {
  /// The form's fields.
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var title = ""
    public var count = 0
    public var note: String?
    /// A field that holds fields: a binding of `\.details.title` cannot be named in the journal.
    public var details = Details()

    /// Creates a form.
    public init(title: String = "", count: Int = 0, note: String? = nil) {
      self.title = title
      self.count = count
      self.note = note
    }

    /// Fields inside a field.
    public struct Details: Codable, Equatable, Sendable {
      public var title = ""
      public init() {}
    }
  }

  /// The form's actions: its bindings, and one that clears it.
  public enum Action: BindableAction, Codable, Equatable, Sendable {
    case binding(BindingAction<State>)
    case clearTapped
  }

  /// Creates the feature.
  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        return .none
      case .clearTapped:
        state = State()
        return .none
      }
    }
  }
}
