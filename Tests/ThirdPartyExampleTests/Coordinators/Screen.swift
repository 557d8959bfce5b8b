// TCACoordinators' example feature (Screen.swift), as written there with its views removed and
// `import StackNavigation` for its imports.
import Foundation
import StackNavigation

@Reducer
enum Screen {
  case home(Home)
  case numbersList(NumbersList)
  case numberDetail(NumberDetail)
}

extension Screen.State: Hashable { }

// Home

@Reducer
struct Home {
  struct State: Hashable {
    let id = UUID()
  }

  enum Action {
    case startTapped
  }
}

// NumbersList

@Reducer
struct NumbersList {
  @ObservableState
  struct State: Hashable {
    let id = UUID()
    let numbers: [Int]
  }

  enum Action {
    case numberSelected(Int)
  }
}

// NumberDetail

@Reducer
struct NumberDetail {
  @ObservableState
  struct State: Hashable {
    let id = UUID()
    var number: Int
  }

  enum Action {
    case goBackTapped
    case goBackToRootTapped
    case goBackToNumbersList
    case incrementAfterDelayTapped
    case incrementTapped
    case showDouble(Int)
  }

  @Dependency(\.mainQueue) var mainQueue

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .goBackToRootTapped, .goBackTapped, .goBackToNumbersList, .showDouble:
        return .none

      case .incrementAfterDelayTapped:
        return .run { send in
          try await mainQueue.sleep(for: .seconds(3))
          await send(.incrementTapped)
        }

      case .incrementTapped:
        state.number += 1
        return .none
      }
    }
  }
}
