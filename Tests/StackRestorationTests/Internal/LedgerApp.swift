// An app written as TCA teaches: its reducers draw IDs from `\.uuid`, times from `\.date.now`
// and numbers from `\.withRandomNumberGenerator` — at the root, inside a stack element and
// inside a presented child — and never call `UUID()` or `Date()` themselves. Recorded on the
// live dependencies, its replay must hand back exactly what it drew.
import Foundation
import StackNavigation

struct LedgerLine: Equatable, Codable, Identifiable, Sendable {
  var id: UUID
  var createdAt: Date
  var amount: Int
  var notes: [LedgerNote] = []
}

struct LedgerNote: Equatable, Codable, Sendable {
  var id: UUID
  var writtenAt: Date
  var text: String
}

@Reducer
struct LineDetail {
  @ObservableState
  struct State: Equatable, Codable {
    var line: LedgerLine
  }
  enum Action: Codable {
    case noteTapped(String)
    case shuffleTapped
    case rerollTapped
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .noteTapped(text):
        state.line.notes.append(LedgerNote(id: uuid(), writtenAt: now, text: text))
        return .none
      case .shuffleTapped:
        let notes = state.line.notes
        state.line.notes = withRandomNumberGenerator { notes.shuffled(using: &$0) }
        return .none
      case .rerollTapped:
        state.line.amount = withRandomNumberGenerator { Int.random(in: 1...1_000, using: &$0) }
        return .none
      }
    }
  }
}

@Reducer
struct LineComposer {
  @ObservableState
  struct State: Equatable, Codable {
    var draft: LedgerLine?
  }
  enum Action: Codable {
    case startTapped
    case rollTapped
    case saveTapped
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date) var date
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        state.draft = LedgerLine(id: uuid(), createdAt: date(), amount: 0)
        return .none
      case .rollTapped:
        state.draft?.amount = withRandomNumberGenerator { Int.random(in: 1...99, using: &$0) }
        return .none
      case .saveTapped:
        return .none
      }
    }
  }
}

@Reducer
struct Ledger {
  @ObservableState
  struct State: Equatable, Codable {
    var lines: [LedgerLine] = []
    var path = StackState<Path.State>()
    @Presents var composer: LineComposer.State?
    var lastOpened: Date?
  }
  enum Action: Codable {
    case addTapped
    case openTapped(Int)
    case composeTapped
    case path(StackActionOf<Path>)
    case composer(PresentationAction<LineComposer.Action>)
  }

  @Reducer
  enum Path {
    case line(LineDetail)
  }

  @Dependency(\.uuid) var uuid
  @Dependency(\.date.now) var now
  @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        let amount = withRandomNumberGenerator { Int.random(in: 1...1_000, using: &$0) }
        state.lines.append(LedgerLine(id: uuid(), createdAt: now, amount: amount))
        return .none
      case let .openTapped(index):
        guard state.lines.indices.contains(index) else { return .none }
        state.lastOpened = now
        state.path.append(.line(LineDetail.State(line: state.lines[index])))
        return .none
      case .composeTapped:
        state.composer = LineComposer.State()
        return .none
      case .composer(.presented(.saveTapped)):
        if let draft = state.composer?.draft { state.lines.append(draft) }
        state.composer = nil
        return .none
      case .composer, .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path)
    .ifLet(\.$composer, action: \.composer) {
      LineComposer()
    }
  }
}

extension Ledger.Path.State: Equatable, Codable {}
extension Ledger.Path.Action: Codable {}

enum LedgerScript {
  /// Every screen draws: the root adds lines, a pushed line takes notes and rerolls, the
  /// presented composer drafts and rolls before it is saved into the root's lines.
  static let actions: [Ledger.Action] = [
    .addTapped,
    .addTapped,
    .openTapped(0),
    .path(.element(id: 0, action: .line(.noteTapped("first")))),
    .path(.element(id: 0, action: .line(.noteTapped("second")))),
    .path(.element(id: 0, action: .line(.noteTapped("third")))),
    .path(.element(id: 0, action: .line(.shuffleTapped))),
    .path(.element(id: 0, action: .line(.rerollTapped))),
    .composeTapped,
    .composer(.presented(.startTapped)),
    .composer(.presented(.rollTapped)),
    .composer(.presented(.saveTapped)),
    .openTapped(2),
    .path(.element(id: 1, action: .line(.noteTapped("on the composed line")))),
    .path(.popFrom(id: 0)),
    .addTapped,
  ]
}

/// The dependencies an app runs on in production: nothing here is a test value.
func withLiveDraws<R>(_ operation: () async throws -> R) async rethrows -> R {
  try await withDependencies {
    $0.uuid = UUIDGenerator { UUID() }
    $0.date = DateGenerator { Date() }
    $0.withRandomNumberGenerator = WithRandomNumberGenerator(SystemRandomNumberGenerator())
    $0.calendar = .autoupdatingCurrent
    $0.timeZone = .autoupdatingCurrent
    $0.locale = .autoupdatingCurrent
  } operation: {
    try await operation()
  }
}
