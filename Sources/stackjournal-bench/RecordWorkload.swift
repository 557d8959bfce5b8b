import Foundation
import StackJournalDemo
import StackNavigation

/// A realistic navigation state for the recording benchmarks: a stack of screens of a few
/// hundred bytes of JSON each (an article, a form), below a small root.
struct ArticleApp: Reducer {
  struct State: Equatable, Codable, Sendable {
    var path: StackState<Screen.State> = []
    var account = Account()
  }

  struct Account: Equatable, Codable, Sendable {
    var user = "reader-4711"
    var locale = "en_GB"
    var signedIn = true
  }

  @CasePathable
  enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Screen>)
    case openArticle(Article)
    case openForm(Form)
  }

  struct Screen: Reducer {
    @CasePathable
    enum State: Equatable, Codable, Sendable {
      case article(Article)
      case form(Form)
    }

    @CasePathable
    enum Action: Equatable, Codable, Sendable {
      case scrolled(offset: Double)
      case fieldEdited(notes: String)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch (state, action) {
        case (.article(var article), .scrolled(let offset)):
          article.scrollOffset = offset
          article.readCount += 1
          state = .article(article)
        case (.form(var form), .fieldEdited(let notes)):
          form.notes = notes
          form.step += 1
          state = .form(form)
        case (.article(var article), .fieldEdited(let notes)):
          article.highlight = notes
          state = .article(article)
        case (.form(var form), .scrolled(let offset)):
          form.scrollOffset = offset
          state = .form(form)
        }
        return .none
      }
    }
  }

  struct Article: Equatable, Codable, Sendable {
    var id: String
    var title: String
    var summary: String
    var tags: [String]
    var scrollOffset: Double
    var readCount: Int
    var highlight: String?
  }

  struct Form: Equatable, Codable, Sendable {
    var id: String
    var name: String
    var email: String
    var notes: String
    var step: Int
    var accepted: Bool
    var scrollOffset: Double
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .openArticle(let article):
        state.path.append(.article(article))
      case .openForm(let form):
        state.path.append(.form(form))
      case .path:
        break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Screen() }
  }
}

/// The actions of a recording benchmark: half of them change an element of the stack, a
/// quarter push a screen, a quarter pop the top one; the depth stays within ±3 of a target.
struct RecordWorkload: BenchWorkload {
  let depth: Int
  private var generator: SeededGenerator
  private var serial = 0

  /// The seed of a workload that names none.
  static let defaultSeed: UInt64 = 7

  init(depth: Int, seed: UInt64 = defaultSeed) {
    self.depth = depth
    self.generator = SeededGenerator(seed: seed)
  }

  static func feature() -> ArticleApp { ArticleApp() }

  static func screens(of state: ArticleApp.State) -> [any Encodable] { Array(state.path) }

  /// A state `depth` screens deep.
  mutating func initialState() -> ArticleApp.State {
    var state = ArticleApp.State()
    for _ in 0..<depth { state.path.append(nextScreen()) }
    return state
  }

  /// The next action for `state`.
  mutating func nextAction(for state: ArticleApp.State) -> ArticleApp.Action {
    let id: StackElementID
    switch StackStep.next(count: state.path.count, depth: depth, using: &generator) {
    case .push:
      switch nextScreen() {
      case .article(let article): return .openArticle(article)
      case .form(let form): return .openForm(form)
      }
    case .pop: return .path(.popFrom(id: state.path.ids[state.path.count - 1]))
    case .change(let index): id = state.path.ids[index]
    }
    if Bool.random(using: &generator) {
      return .path(
        .element(id: id, action: .scrolled(offset: Double(Int.random(in: 0..<5000, using: &generator)))))
    }
    return .path(.element(id: id, action: .fieldEdited(notes: words(4...9))))
  }

  private mutating func nextScreen() -> ArticleApp.Screen.State {
    serial += 1
    let id = String(format: "%08x-%04x", serial * 2_654_435_761 % 0xFFFF_FFFF, serial % 0xFFFF)
    if Bool.random(using: &generator) {
      return .article(
        ArticleApp.Article(
          id: id, title: words(3...7), summary: words(22...38),
          tags: (0..<Int.random(in: 2...4, using: &generator)).map { _ in words(1...1) },
          scrollOffset: 0, readCount: 0, highlight: nil))
    }
    return .form(
      ArticleApp.Form(
        id: id, name: words(2...3), email: "user\(serial)@example.org", notes: words(18...34),
        step: 0, accepted: Bool.random(using: &generator), scrollOffset: 0))
  }

  static let vocabulary = """
    stack journal navigation restore session element screen account order payment detail \
    settings profile search results filter basket checkout address delivery summary review \
    history support message thread reply draft archive label folder contact invoice receipt
    """.split(separator: " ").map(String.init)

  private mutating func words(_ range: ClosedRange<Int>) -> String {
    (0..<Int.random(in: range, using: &generator))
      .map { _ in Self.vocabulary.randomElement(using: &generator)! }
      .joined(separator: " ")
  }
}
