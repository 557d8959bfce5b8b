import Testing

@testable import StackNavigation

/// `_JournalCaseName.of` (the journal type of an action, which a `RecordingStore` records as the
/// entry's `type`) spares reflection where it can; these tests hold it to what reflecting every
/// level gives, on the enums users write and on the package's own stack and router actions.
@Suite struct ActionTypeNameTests {
  enum Counter: Equatable, Sendable {
    case increment
    case set(Int)
    case textChanged(String)
    case maybe(Flag?)
  }

  enum Flag: Equatable, Sendable {
    case on, off
    case level(Int)
  }

  indirect enum Tree: Sendable {
    case leaf
    case node(Tree)
    case pair(Tree, Int)
  }

  enum Pairs: Sendable {
    case enumFirst(Flag, Int)
    case enumLast(Int, Flag)
    case bothEnums(Flag, Counter)
    case noEnum(Int, String)
  }

  enum Generic<Value: Sendable>: Sendable {
    case wrap(Value)
    case empty
  }

  enum Erased: Sendable {
    case delegate(any Sendable)
  }

  enum Described: CustomStringConvertible, Sendable {
    case first, second
    var description: String { self == .first ? "first-described" : "second-described" }
  }

  enum DescribedHere: CustomStringConvertible, Sendable {
    case first, second
    var description: String { self == .first ? "first, described" : "second, described" }
  }

  enum SelfReflecting: CustomReflectable, Sendable {
    case plain
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
  }

  enum ScreenID: Hashable, Sendable { case home, detail }

  /// Cases with labelled associated values, whose payloads are tuples: of values that can
  /// never be a level (read from the tuple's type, without its mirror), and of values that can.
  enum Labelled: Sendable {
    case scrolled(offset: Double)
    case edited(notes: String, at: Int)
    case boxed(box: Box, count: Int?)
    case nested(pair: (Int, Flag), name: Substring)
    case picked(flag: Flag)
    case pickedLast(count: Int, flag: Flag)
    case optional(flag: Flag?)
    case mirrored(value: Mirrored)
    case object(reference: Reference)
    case erased(value: any Sendable)
  }

  /// Labelled payloads of generic types: tuples whose element types are the arguments'.
  enum Paired<First: Sendable, Second: Sendable>: Sendable {
    case values(first: First, second: Second)
    case unit(())
  }

  struct Box: Sendable {
    var count: Int
    var flag: Flag
  }

  /// A struct whose mirror says it is an enum: reflection names it as one.
  struct Mirrored: CustomReflectable, Sendable {
    var customMirror: Mirror { Mirror(self, children: ["inner": 1], displayStyle: .enum) }
  }

  final class Reference: Sendable {}

  enum Path: Equatable, Sendable {
    case counter(Counter)
    case flag(Flag)
  }

  enum Root: Sendable {
    case path(StackAction<Path, Path>)
    case router(RouterAction<Int, Path, Path>)
    case routerByEnum(RouterAction<ScreenID, Path, Int>)
    case tree(Tree)
    case pairs(Pairs)
    case generic(Generic<Flag>)
    case genericInt(Generic<Int>)
    case erased(Erased)
    case described(Described)
    case selfReflecting(SelfReflecting)
    case labelled(Labelled)
    case paired(Paired<Int, Flag>)
    case pairedPlain(Paired<String, Box>)
    case pairedOptional(Paired<Flag?, Int>)
    case onAppear
  }

  static let actions: [any Sendable] = [
    Root.path(.element(id: 3, action: .counter(.increment))),
    Root.path(.element(id: 4, action: .counter(.set(7)))),
    Root.path(.element(id: 4, action: .counter(.textChanged("a")))),
    Root.path(.element(id: 4, action: .counter(.maybe(.on)))),
    Root.path(.element(id: 4, action: .counter(.maybe(nil)))),
    Root.path(.element(id: 5, action: .flag(.level(2)))),
    Root.path(.push(id: 6, state: .flag(.off))),
    Root.path(.push(id: 6, state: .counter(.set(1)))),
    Root.path(.popFrom(id: 2)),
    Root.router(.routeAction(0, action: .flag(.on))),
    Root.router(.updateRoutes([.push(.flag(.on))])),
    Root.routerByEnum(.routeAction(.detail, action: 1)),
    Root.tree(.node(.node(.leaf))),
    Root.tree(.pair(.leaf, 1)),
    Root.pairs(.enumFirst(.on, 1)),
    Root.pairs(.enumLast(1, .off)),
    Root.pairs(.bothEnums(.on, .increment)),
    Root.pairs(.noEnum(1, "x")),
    Root.generic(.wrap(.on)),
    Root.generic(.empty),
    Root.genericInt(.wrap(1)),
    Root.genericInt(.empty),
    Root.erased(.delegate(Flag.on)),
    Root.erased(.delegate(1)),
    Root.erased(.delegate(Flag.level(1))),
    Root.described(.first),
    Root.described(.second),
    Root.selfReflecting(.plain),
    Root.labelled(.scrolled(offset: 12.5)),
    Root.labelled(.edited(notes: "n", at: 1)),
    Root.labelled(.boxed(box: Box(count: 1, flag: .on), count: nil)),
    Root.labelled(.nested(pair: (1, .on), name: "x")),
    Root.labelled(.picked(flag: .level(1))),
    Root.labelled(.pickedLast(count: 1, flag: .off)),
    Root.labelled(.optional(flag: .on)),
    Root.labelled(.optional(flag: nil)),
    Root.labelled(.mirrored(value: Mirrored())),
    Root.labelled(.object(reference: Reference())),
    Root.labelled(.erased(value: Flag.on)),
    Root.labelled(.erased(value: 1)),
    Root.paired(.values(first: 1, second: .level(2))),
    Root.paired(.unit(())),
    Root.pairedPlain(.values(first: "x", second: Box(count: 1, flag: .off))),
    Root.pairedOptional(.values(first: .on, second: 1)),
    Root.onAppear,
    Flag.on,
    StackAction<Path, Path>.element(id: 1, action: .flag(.off)),
    1,
    "not an enum",
    Flag?.some(.on),
    Flag?.none,
  ]

  @Test func namesAreWhatReflectingEveryLevelGives() {
    // Twice over: the second round reads the case names remembered in the first.
    for round in 1...2 {
      for action in Self.actions {
        #expect(
          _JournalCaseName.of(action) == reflectedTypeName(action),
          "round \(round): \(String(reflecting: action))")
      }
    }
  }

  @Test func aTypedActionIsNamedAsAnyOther() {
    // As a store names its actions: by their type, which names its cases or not.
    for round in 1...2 {
      for case let action as Root in Self.actions {
        #expect(
          _JournalCaseName.of(typed: action) == reflectedTypeName(action),
          "round \(round): \(String(reflecting: action))")
      }
      #expect(_JournalCaseName.of(typed: Flag.level(1)) == "level")
      #expect(_JournalCaseName.of(typed: Flag?.some(.on)) == "")
      #expect(_JournalCaseName.of(typed: 1) == "")
      let erased: any Sendable = Root.onAppear
      #expect(_JournalCaseName.of(typed: erased) == "onAppear")
      let stack = StackAction<Path, Path>.element(id: 1, action: .flag(.off))
      #expect(_JournalCaseName.of(typed: stack) == "element.flag.off")
    }
  }

  @Test func namesOfTheSeedsShapes() {
    #expect(_JournalCaseName.of(Root.path(.element(id: 3, action: .counter(.increment))))
      == "path.element.counter.increment")
    #expect(
      _JournalCaseName.of(Root.path(.push(id: 6, state: .flag(.off)))) == "path.push.flag.off")
    #expect(_JournalCaseName.of(Root.path(.popFrom(id: 2))) == "path.popFrom")
    #expect(_JournalCaseName.of(Root.router(.updateRoutes([]))) == "router.updateRoutes")
    #expect(_JournalCaseName.of(Root.routerByEnum(.routeAction(.detail, action: 1)))
      == "routerByEnum.routeAction.detail")
    #expect(_JournalCaseName.of(Root.described(.first)) == "described.first-described")
    #expect(_JournalCaseName.of(Root.erased(.delegate(1))) == "erased.delegate")
    #expect(_JournalCaseName.of(Root.erased(.delegate(Flag.off))) == "erased.delegate.off")
    #expect(_JournalCaseName.of(1).isEmpty)
    #expect(_JournalCaseName.of(Root.labelled(.scrolled(offset: 1))) == "labelled.scrolled")
    #expect(_JournalCaseName.of(Root.labelled(.picked(flag: .on))) == "labelled.picked.on")
    #expect(_JournalCaseName.of(Root.labelled(.pickedLast(count: 1, flag: .off)))
      == "labelled.pickedLast.off")
    #expect(
      _JournalCaseName.of(Root.labelled(.mirrored(value: Mirrored()))) == "labelled.mirrored.inner")
    #expect(_JournalCaseName.of(Root.labelled(.erased(value: Flag.on))) == "labelled.erased.on")
  }

  /// The payload of a case with labelled associated values, as a name meets it.
  private static func payload(of value: Labelled) throws -> Any {
    try #require(Mirror(reflecting: value).children.first).value
  }

  @Test func aTupleThatCanHoldNoLevelIsKnownFromItsType() throws {
    let withoutLevels: [Labelled] = [
      .scrolled(offset: 1), .edited(notes: "", at: 0),
      .boxed(box: Box(count: 0, flag: .on), count: 1), .nested(pair: (0, .on), name: ""),
      .optional(flag: .on),
    ]
    for value in withoutLevels {
      let payload = try Self.payload(of: value)
      #expect(Mirror(reflecting: payload).displayStyle == .tuple)
      guard case .tupleWithoutLevels = JournalCaseNaming.kind(of: payload) else {
        Issue.record("\(value): \(JournalCaseNaming.kind(of: payload))")
        continue
      }
    }
    // An enum, a struct with a mirror of its own, a class, an existential: the mirror tells.
    let withLevels: [Labelled] = [
      .picked(flag: .on), .pickedLast(count: 0, flag: .on), .mirrored(value: Mirrored()),
      .object(reference: Reference()), .erased(value: 1),
    ]
    for value in withLevels {
      let payload = try Self.payload(of: value)
      guard case .unknown = JournalCaseNaming.kind(of: payload) else {
        Issue.record("\(value): \(JournalCaseNaming.kind(of: payload))")
        continue
      }
    }
  }

  @Test func caseTagsTellCasesApartAndOnlyEnumsHaveThem() throws {
    let tags = try [Flag.on, .off, .level(1), .level(2)].map { try #require(enumCaseTag(of: $0)) }
    #expect(tags[0] != tags[1])
    #expect(tags[2] == tags[3])
    #expect(Set(tags).count == 3)
    #expect(enumCaseTag(of: Tree.node(.leaf)) != enumCaseTag(of: Tree.leaf))
    #expect(enumCaseTag(of: 1) == nil)
    #expect(enumCaseTag(of: "text") == nil)
    #expect(enumCaseTag(of: Flag?.some(.on)) == nil)
    #expect(enumCaseTag(of: (Flag.on, 1)) == nil)
    #expect(enumCaseTag(of: CaseNames.shared) == nil)
  }

  @Test func aCaseNameIsRememberedPerTypeAndCase() {
    // A plain enum's cases are read from its metadata (`EnumCaseReadingTests`); one that
    // describes itself is named by reflection, and its cases without values remembered.
    _ = _JournalCaseName.of(Flag.off)
    #expect(CaseNames.shared.name(of: Flag.off) == nil)
    // An enum no other test names: the cache is shared by tests running at the same time.
    _ = _JournalCaseName.of(DescribedHere.first)
    #expect(CaseNames.shared.name(of: DescribedHere.first) == "first, described")
    #expect(CaseNames.shared.name(of: DescribedHere.second) == nil)
    #expect(CaseNames.shared.name(of: Generic<Flag>.empty) == nil)
    _ = _JournalCaseName.of(SelfReflecting.plain)
    #expect(CaseNames.shared.name(of: SelfReflecting.plain) == nil)
  }
}

/// A feature as a Composable Architecture user writes one: the `@Reducer` macro names its enums'
/// cases (and those of its `@Reducer enum Path`) for the journal, without reflection.
@Reducer
struct MacroShop {
  struct State: Equatable {
    var path = StackState<Path.State>()
  }
  enum Action {
    case path(StackActionOf<Path>)
    case opened(Product.State)
    case pair(Int, ActionTypeNameTests.Flag)
    case described(Described.Action)
    case handWritten(ActionTypeNameTests.Counter)
    case tapped
  }
  @Reducer
  enum Path {
    case product(Product)
    case list(ProductList)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: \.path)
  }

  @Reducer
  struct Product {
    struct State: Equatable { var rating = 0 }
    enum Action {
      case review(Review.Action)
      case maybeReview(Review.Action?)
      case scrolled(offset: Double)
      case moved(from: Int, to: ActionTypeNameTests.Flag, by: Double)
    }
  }

  @Reducer
  struct Review {
    struct State: Equatable {}
    enum Action {
      case ratingChanged(Int)
      case cleared
    }
  }

  @Reducer
  struct ProductList {
    struct State: Equatable { var query = "" }
    enum Action {
      case sorted(ActionTypeNameTests.Flag)
      case nested((Int, Review.Action))
    }
  }

  /// A conforming enum that describes itself: named by reflection, so its description stays.
  @Reducer
  struct Described {
    struct State: Equatable {}
    enum Action: CustomStringConvertible {
      case first
      var description: String { "first-described" }
    }
  }
}

extension MacroShop.Path.State: Equatable {}

@Suite struct MacroActionTypeNameTests {
  static let actions: [any Sendable] = [
    MacroShop.Action.path(.element(id: 1, action: .product(.review(.ratingChanged(3))))),
    MacroShop.Action.path(.element(id: 1, action: .product(.review(.cleared)))),
    MacroShop.Action.path(.element(id: 1, action: .product(.maybeReview(.cleared)))),
    MacroShop.Action.path(.element(id: 1, action: .product(.maybeReview(nil)))),
    MacroShop.Action.path(.element(id: 1, action: .product(.scrolled(offset: 120.5)))),
    MacroShop.Action.path(.element(id: 1, action: .product(.moved(from: 1, to: .on, by: 2)))),
    MacroShop.Action.path(.element(id: 2, action: .list(.sorted(.level(2))))),
    MacroShop.Action.path(.element(id: 2, action: .list(.nested((1, .cleared))))),
    MacroShop.Action.path(.push(id: 3, state: .list(.init(query: "shoes")))),
    MacroShop.Action.path(.push(id: 3, state: .product(.init()))),
    MacroShop.Action.path(.popFrom(id: 3)),
    MacroShop.Action.opened(.init(rating: 2)),
    MacroShop.Action.pair(1, .off),
    MacroShop.Action.described(.first),
    MacroShop.Action.handWritten(.maybe(.on)),
    MacroShop.Action.handWritten(.set(2)),
    MacroShop.Action.tapped,
    MacroShop.Review.Action.cleared,
    MacroShop.Path.State.product(.init()),
  ]

  @Test func theMacroNamesTheEnumsItSees() {
    #expect(MacroShop.Action.self is any _JournalCaseNamed.Type)
    #expect(MacroShop.Path.Action.self is any _JournalCaseNamed.Type)
    #expect(MacroShop.Path.State.self is any _JournalCaseNamed.Type)
    #expect(MacroShop.Product.Action.self is any _JournalCaseNamed.Type)
    #expect(!(ActionTypeNameTests.Counter.self is any _JournalCaseNamed.Type))
  }

  @Test func namesAreWhatReflectingEveryLevelGives() {
    for round in 1...2 {
      for action in Self.actions {
        #expect(
          _JournalCaseName.of(action) == reflectedTypeName(action),
          "round \(round): \(String(reflecting: action))")
      }
    }
  }

  @Test func aTypedActionIsNamedAsAnyOther() {
    for round in 1...2 {
      for case let action as MacroShop.Action in Self.actions {
        #expect(
          _JournalCaseName.of(typed: action) == reflectedTypeName(action),
          "round \(round): \(String(reflecting: action))")
      }
      let described = MacroShop.Described.Action.first
      #expect(_JournalCaseName.of(typed: described) == "first-described")
      let path = MacroShop.Path.State.product(.init())
      #expect(_JournalCaseName.of(typed: path) == reflectedTypeName(path))
    }
  }

  @Test func namesOfNestedPathActions() {
    #expect(
      _JournalCaseName.of(
        MacroShop.Action.path(.element(id: 1, action: .product(.review(.ratingChanged(3))))))
        == "path.element.product.review.ratingChanged")
    #expect(
      _JournalCaseName.of(MacroShop.Action.path(.push(id: 3, state: .list(.init()))))
        == "path.push.list")
    #expect(
      _JournalCaseName.of(
        MacroShop.Action.path(.element(id: 1, action: .product(.maybeReview(nil)))))
        == "path.element.product.maybeReview")
    #expect(
      _JournalCaseName.of(MacroShop.Action.path(.element(id: 2, action: .list(.sorted(.off)))))
        == "path.element.list.sorted.off")
    // An enum written without the macro, below one the macro named, is read by reflection.
    #expect(_JournalCaseName.of(MacroShop.Action.handWritten(.maybe(.on))) == "handWritten.maybe")
    #expect(_JournalCaseName.of(MacroShop.Action.described(.first)) == "described.first-described")
  }
}

/// The journal type read by reflecting every level: the definition `_JournalCaseName.of` keeps
/// to.
func reflectedTypeName(_ action: Any) -> String {
  var names: [String] = []
  var value = action
  var mirror = Mirror(reflecting: action)
  while mirror.displayStyle == .enum {
    guard let child = mirror.children.first, let label = child.label else {
      names.append(String(describing: value))
      break
    }
    names.append(label)
    let payload = Mirror(reflecting: child.value)
    if payload.displayStyle == .enum {
      (value, mirror) = (child.value, payload)
    } else if payload.displayStyle == .tuple,
      let last = payload.children.reversed().first(where: {
        Mirror(reflecting: $0.value).displayStyle == .enum
      })
    {
      (value, mirror) = (last.value, Mirror(reflecting: last.value))
    } else {
      break
    }
  }
  return names.joined(separator: ".")
}
