// The article's RootFeature, as the article writes it: a `@Reducer enum Path` of three features,
// integrated with `forEach(\.path, action: \.path)`, reacting to the edit feature's save.
import Foundation
import StackNavigation

struct Item: Equatable, Codable, Sendable {
  var title = ""
  var quantity = 1
}

struct DatabaseClient: Sendable {
  var save: @Sendable (Item) async -> Void
}

extension DatabaseClient: DependencyKey {
  static let liveValue = DatabaseClient(save: { _ in })
  static let testValue = DatabaseClient(save: { _ in })
}

extension DependencyValues {
  var database: DatabaseClient {
    get { self[DatabaseClient.self] }
    set { self[DatabaseClient.self] = newValue }
  }
}

@Reducer
struct AddFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var item = Item()
  }
  enum Action: Codable {
    case titleChanged(String)
    case quantityChanged(Int)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .titleChanged(title):
        state.item.title = title
        return .none
      case let .quantityChanged(quantity):
        state.item.quantity = quantity
        return .none
      }
    }
  }
}

@Reducer
struct DetailFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var item: Item
  }
  enum Action: Codable {
    case editButtonTapped
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in .none }
  }
}

@Reducer
struct EditFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var item: Item
  }
  enum Action: Codable {
    case titleChanged(String)
    case saveButtonTapped
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case let .titleChanged(title):
        state.item.title = title
        return .none
      case .saveButtonTapped:
        return .none
      }
    }
  }
}

@Reducer
struct RootFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var path = StackState<Path.State>()
    var items: [Item] = []
  }
  enum Action: Codable {
    case path(StackActionOf<Path>)
    case addButtonTapped
    case itemTapped(Int)
  }

  @Reducer
  enum Path {
    case addItem(AddFeature)
    case detailItem(DetailFeature)
    case editItem(EditFeature)
  }

  @Dependency(\.database) var database

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.path.append(.addItem(AddFeature.State()))
        return .none

      case let .itemTapped(index):
        guard state.items.indices.contains(index) else { return .none }
        state.path.append(.detailItem(DetailFeature.State(item: state.items[index])))
        return .none

      case .path(.element(id: _, action: .detailItem(.editButtonTapped))):
        guard let item = state.path.last?.detailItem?.item else { return .none }
        state.path.append(.editItem(EditFeature.State(item: item)))
        return .none

      case let .path(.element(id: id, action: .editItem(.saveButtonTapped))):
        guard let editItemState = state.path[id: id]?.editItem
        else { return .none }

        state.path.pop(from: id)
        return .run { _ in
          await self.database.save(editItemState.item)
        }

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

extension RootFeature.Path.State: Equatable, Codable {}
extension RootFeature.Path.Action: Codable {}
