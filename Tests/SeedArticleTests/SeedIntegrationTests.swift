// The article's Basics and Integration sections: an enum `Path`, `forEach` without a
// destination, destructuring the edit feature's save, `pop(from:)` and a `.run` that saves
// through a dependency.
import Foundation
import StackNavigation
import Testing

@MainActor
@Suite struct SeedIntegrationTests {
  @Test func addEditAndSave() async {
    let saved = LockIsolated<[Item]>([])
    let milk = Item(title: "Milk", quantity: 2)
    let store = TestStore(initialState: RootFeature.State(items: [milk])) {
      RootFeature()
    } withDependencies: {
      $0.database.save = { item in saved.withValue { $0.append(item) } }
    }

    await store.send(.addButtonTapped) {
      $0.path[id: 0] = .addItem(AddFeature.State())
    }
    await store.send(\.path[id: 0].addItem.titleChanged, "Eggs") {
      $0.path[id: 0, case: \.addItem]?.item.title = "Eggs"
    }
    await store.send(.itemTapped(0)) {
      $0.path[id: 1] = .detailItem(DetailFeature.State(item: milk))
    }
    await store.send(\.path[id: 1].detailItem.editButtonTapped) {
      $0.path[id: 2] = .editItem(EditFeature.State(item: milk))
    }
    await store.send(\.path[id: 2].editItem.titleChanged, "Oat milk") {
      $0.path[id: 2, case: \.editItem]?.item.title = "Oat milk"
    }
    await store.send(\.path[id: 2].editItem.saveButtonTapped) {
      $0.path.pop(from: 2)
    }
    await store.finish()
    #expect(saved.value == [Item(title: "Oat milk", quantity: 2)])
  }

  @Test func dynamicMemberLookupReadsACase() {
    var path = StackState<RootFeature.Path.State>()
    path.append(.addItem(AddFeature.State()))
    path.append(.editItem(EditFeature.State(item: Item(title: "Tea"))))
    #expect(path[id: 1]?.editItem?.item.title == "Tea")
    #expect(path[id: 1]?.addItem == nil)
    #expect(path.last?.detailItem == nil)
    #expect(path.first?.addItem == AddFeature.State())
  }

  @Test func aScopedElementStoreSwitchesOverEveryCase() async throws {
    let store = Store(
      initialState: RootFeature.State(items: [Item(title: "Bread")])
    ) {
      RootFeature()
    }
    try await store.send(.addButtonTapped)
    try await store.send(.itemTapped(0))

    var seen: [String] = []
    for id: StackElementID in [0, 1] {
      let element = store.scope(\.path, action: \.path, id: id)
      switch await element.case {
      case let .addItem(store)?:
        try await store.send(.titleChanged("Butter"))
        seen.append("add: \(await store.state?.item.title ?? "-")")
      case let .detailItem(store)?:
        seen.append("detail: \(await store.state?.item.title ?? "-")")
      case let .editItem(store)?:
        seen.append("edit: \(await store.state?.item.title ?? "-")")
      case nil:
        seen.append("gone")
      }
    }
    #expect(seen == ["add: Butter", "detail: Bread"])

    let gone = store.scope(\.path, action: \.path, id: 7)
    #expect(await gone.case == nil)
    await #expect(throws: ScopedStoreError.self) {
      try await gone.send(.addItem(.titleChanged("x")))
    }
  }

  @Test func observableStateChangesNothing() throws {
    // `@ObservableState` keeps the synthesized conformances of the state it marks.
    let state = AddFeature.State(item: Item(title: "Jam", quantity: 3))
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(AddFeature.State.self, from: data) == state)
    let sendable: any Sendable = state
    #expect(sendable is AddFeature.State)
  }
}
