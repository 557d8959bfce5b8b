import Testing

// Each test compiles a file that imports StackNavigation, with the macros as a user's build
// loads them, and checks what the compiler expanded and diagnosed (see `MacroCompiler`).

/// Two features the enum-form tests hold.
private let features = """
  @Reducer
  struct AddFeature {
    struct State: Equatable { var title = "" }
    enum Action { case titleChanged(String) }
    var body: some ReducerOf<Self> { EmptyReducer() }
  }

  @Reducer
  struct DetailFeature {
    struct State: Equatable { var id = 0 }
    enum Action { case delete }
    var body: some ReducerOf<Self> { EmptyReducer() }
  }

  """

/// Compiles `source` and expects it to type-check with no diagnostics.
private func compileCleanly(
  _ source: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> MacroCompiler.Compilation {
  let compilation = try MacroCompiler.compile(source)
  #expect(compilation.status == 0, "\(compilation.output)", sourceLocation: sourceLocation)
  #expect(compilation.diagnostics == [], sourceLocation: sourceLocation)
  return compilation
}

@Suite struct ReducerMacroTests {
  @Test func enumOfFeatures() throws {
    let compilation = try compileCleanly(
      features + """
        @Reducer
        enum Path {
          case addItem(AddFeature)
          case detailItem(DetailFeature)
        }
        """)
    #expect(
      compilation.expansion("Reducer", .member, on: "Path") == #"""
        @CasePaths.CasePathable
        @dynamicMemberLookup
        @StackNavigation._JournalCaseNamed
        enum State: StackNavigation.CaseReducerState {
          typealias StateReducer = Path
          case addItem(AddFeature.State)
          case detailItem(DetailFeature.State)
        }

        @CasePaths.CasePathable
        @StackNavigation._JournalCaseNamed
        enum Action {
          case addItem(AddFeature.Action)
          case detailItem(DetailFeature.Action)
        }

        typealias Body = StackNavigation.Reduce<Self.State, Self.Action>

        static var body: Body {
          return StackNavigation.Reduce(
            StackNavigation.CombineReducers {
              StackNavigation.Scope(
                _caseState: CasePaths.AnyCasePath(
                  embed: {
                      .addItem($0)
                  },
                  extract: {
                      if case let .addItem(state) = $0 {
                          state
                      } else {
                          nil
                      }
                  }
                ),
                action: CasePaths.AnyCasePath(
                  embed: {
                      .addItem($0)
                  },
                  extract: {
                      if case let .addItem(action) = $0 {
                          action
                      } else {
                          nil
                      }
                  }
                ),
                name: {
                    \Self.State.Cases.addItem
                }
              ) {
                AddFeature()
              }
              StackNavigation.Scope(
                _caseState: CasePaths.AnyCasePath(
                  embed: {
                      .detailItem($0)
                  },
                  extract: {
                      if case let .detailItem(state) = $0 {
                          state
                      } else {
                          nil
                      }
                  }
                ),
                action: CasePaths.AnyCasePath(
                  embed: {
                      .detailItem($0)
                  },
                  extract: {
                      if case let .detailItem(action) = $0 {
                          action
                      } else {
                          nil
                      }
                  }
                ),
                name: {
                    \Self.State.Cases.detailItem
                }
              ) {
                DetailFeature()
              }
            }
          )
        }

        enum CaseScope {
          case addItem(StackNavigation.ScopedStore<AddFeature.State, AddFeature.Action>)
          case detailItem(StackNavigation.ScopedStore<DetailFeature.State, DetailFeature.Action>)
        }

        static func scope(
          _ store: StackNavigation.ScopedStore<Self.State, Self.Action>,
          state: Self.State
        ) -> CaseScope {
          switch state {
          case .addItem:
            return .addItem(
              store.scope(state: \Self.State.Cases.addItem, action: \Self.Action.Cases.addItem)
            )
          case .detailItem:
            return .detailItem(
              store.scope(state: \Self.State.Cases.detailItem, action: \Self.Action.Cases.detailItem)
            )
          }
        }
        """#)
    #expect(
      compilation.expansion("Reducer", .extension, on: "Path") == """
        extension Path: StackNavigation.CaseReducer, StackNavigation.Reducer {
        }
        """)
  }

  @Test func publicEnumOfFeaturesGeneratesPublicMembers() throws {
    let compilation = try compileCleanly(
      """
      public enum Features {
        @Reducer
        public struct Counter {
          public struct State: Equatable { public var count = 0 }
          public enum Action { case increment }
          public init() {}
          public var body: some ReducerOf<Self> { EmptyReducer() }
        }
      }

      @Reducer
      public enum Destination {
        case counter(Features.Counter)
      }
      """)
    #expect(
      compilation.expansion("Reducer", .member, on: "Destination") == #"""
        @CasePaths.CasePathable
        @dynamicMemberLookup
        @StackNavigation._JournalCaseNamed
        public enum State: StackNavigation.CaseReducerState {
          public typealias StateReducer = Destination
          case counter(Features.Counter.State)
        }

        @CasePaths.CasePathable
        @StackNavigation._JournalCaseNamed
        public enum Action {
          case counter(Features.Counter.Action)
        }

        public typealias Body = StackNavigation.Reduce<Self.State, Self.Action>

        public static var body: Body {
          return StackNavigation.Reduce(
            StackNavigation.CombineReducers {
              StackNavigation.Scope(
                _caseState: CasePaths.AnyCasePath(
                  embed: {
                      .counter($0)
                  },
                  extract: {
                      if case let .counter(state) = $0 {
                          state
                      } else {
                          nil
                      }
                  }
                ),
                action: CasePaths.AnyCasePath(
                  embed: {
                      .counter($0)
                  },
                  extract: {
                      if case let .counter(action) = $0 {
                          action
                      } else {
                          nil
                      }
                  }
                ),
                name: {
                    \Self.State.Cases.counter
                }
              ) {
                Features.Counter()
              }
            }
          )
        }

        public enum CaseScope {
          case counter(StackNavigation.ScopedStore<Features.Counter.State, Features.Counter.Action>)
        }

        public static func scope(
          _ store: StackNavigation.ScopedStore<Self.State, Self.Action>,
          state: Self.State
        ) -> CaseScope {
          switch state {
          case .counter:
            return .counter(
              store.scope(state: \Self.State.Cases.counter, action: \Self.Action.Cases.counter)
            )
          }
        }
        """#)
  }

  @Test func structFeature() throws {
    let compilation = try compileCleanly(
      """
      @Reducer
      struct Counter {
        struct State: Equatable { var count = 0 }
        enum Action { case increment }
        var body: some ReducerOf<Self> { EmptyReducer() }
      }

      @Reducer
      struct Feature {
        struct State: Equatable {
          var path = StackState<Path.State>()
        }
        enum Action {
          case path(StackActionOf<Path>)
        }
        @Reducer
        struct Path {
          enum State: Equatable {
            case counter(Counter.State)
          }
          @CasePathable enum Action {
            case counter(Counter.Action)
          }
          var body: some ReducerOf<Self> {
            Scope(state: \\.counter, action: \\.counter) { Counter() }
          }
        }
        var body: some ReducerOf<Self> {
          EmptyReducer().forEach(\\.path, action: \\.path) { Path() }
        }
      }
      """)
    // Nested enums get what the article's `Scope(state: \.counter, …)` and
    // `state.path[id: id]?.counter` need; an attribute already there is not added twice.
    #expect(
      compilation.expansion("Reducer", .memberAttribute, on: "Feature.Path.State")
        == "@CasePaths.CasePathable @dynamicMemberLookup @StackNavigation._JournalCaseNamed")
    #expect(
      compilation.expansion("Reducer", .memberAttribute, on: "Feature.Path.Action")
        == "@StackNavigation._JournalCaseNamed")
    #expect(
      compilation.expansion("Reducer", .memberAttribute, on: "Feature.Action")
        == "@CasePaths.CasePathable @StackNavigation._JournalCaseNamed")
    // A struct `State` is left alone.
    #expect(compilation.expansion("Reducer", .memberAttribute, on: "Feature.State") == "")
    #expect(compilation.expansion("Reducer", .member, on: "Feature") == "")
    #expect(
      compilation.expansion("Reducer", .extension, on: "Feature") == """
        extension Feature: StackNavigation.Reducer {
        }
        """)
    #expect(
      compilation.expansion("Reducer", .extension, on: "Feature.Path") == """
        extension Feature.Path: StackNavigation.Reducer {
        }
        """)
  }

  @Test func structThatAlreadyConformsGetsNoSecondConformance() throws {
    let compilation = try compileCleanly(
      """
      @Reducer
      struct Feature: Reducer {
        struct State: Equatable {}
        enum Action { case tapped }
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """)
    #expect(compilation.expansion("Reducer", .extension, on: "Feature") == "")
    #expect(
      compilation.expansion("Reducer", .memberAttribute, on: "Feature.Action")
        == "@CasePaths.CasePathable @StackNavigation._JournalCaseNamed")
  }

  @Test func casesThatHoldStateAloneRunNoReducer() throws {
    // As in the Composable Architecture: a case that does not hold exactly one feature, unlabeled,
    // holds state alone (SyncUps' `case meeting(Meeting, syncUp: SyncUp)`), its action case holds
    // `Never`, and a scoped store's case hands its values on as they are.
    let compilation = try compileCleanly(
      features + """
        struct Meeting: Equatable { var title = "" }

        @Reducer(state: .equatable, .hashable, action: .equatable)
        enum Path {
          case home
          case pair(AddFeature, DetailFeature)
          case meeting(Meeting, syncUp: Int)
          case tuple((Int, String))
          case add(AddFeature)
        }
        extension AddFeature.State: Hashable {}
        extension DetailFeature.State: Hashable {}
        extension Meeting: Hashable {}
        extension AddFeature.Action: Equatable {}

        func check(_ store: ScopedStore<Path.State, Path.Action>, state: Path.State) -> String {
          switch Path.scope(store, state: state) {
          case .home: return "home"
          case let .pair(add, detail): return "\\(add)\\(detail)"
          case let .meeting(meeting, syncUp: id): return "\\(meeting.title)\\(id)"
          case let .tuple(pair): return pair.1
          case let .add(store): return "\\(store)"
          }
        }
        let meeting: Path.State = .meeting(Meeting(title: "Design"), syncUp: 7)
        let same = meeting == .meeting(Meeting(title: "Design"), syncUp: 7)
        let hashes: Set<Path.State> = [.home, meeting]
        func never(_ action: Path.Action) -> Bool {
          if case .meeting(let never) = action { switch never {} }
          return action == .add(.titleChanged(""))
        }
        """)
    let members = try #require(compilation.expansion("Reducer", .member, on: "Path"))
    #expect(members.contains("enum State: StackNavigation.CaseReducerState, Equatable, Hashable {"))
    #expect(members.contains("case meeting(Meeting, syncUp: Int)"))
    #expect(members.contains("enum Action: Equatable {"))
    #expect(members.contains("case meeting(Swift.Never)"))
    #expect(members.contains("case home(Swift.Never)"))
    #expect(members.contains("case let .meeting(v0, v1):"))
    #expect(members.contains("return .meeting(v0, syncUp: v1)"))
    // Only the feature runs a reducer.
    #expect(!members.contains("DetailFeature()"))
    #expect(members.contains("AddFeature()"))
  }

  @Test func enumThatDeclaresItsOwnStateIsDiagnosed() throws {
    let compilation = try MacroCompiler.compile(
      features + """
        @Reducer
        enum Path {
          case addItem(AddFeature)
          enum State {
            case addItem(AddFeature.State)
          }
        }
        """)
    #expect(compilation.status != 0)
    #expect(
      compilation.diagnostics == [
        .init(
          line: 17, column: 3, severity: "error",
          message: "'@Reducer' enum generates 'State' from its cases; remove this declaration")
      ])
  }

  @Test func classIsDiagnosed() throws {
    let compilation = try MacroCompiler.compile(
      """
      @Reducer
      final class Feature {}
      """)
    #expect(compilation.status != 0)
    #expect(
      compilation.diagnostics == [
        .init(
          line: 1, column: 1, severity: "error",
          message: "'@Reducer' applies to a struct (a feature) or an enum of features "
            + "('@Reducer enum Path { case counter(CounterFeature) }')")
      ])
  }
}

@Suite struct JournalCaseNamedMacroTests {
  @Test func namesEachCaseAndHandsItsValuesOn() throws {
    let compilation = try compileCleanly(
      """
      @Reducer
      struct Feature {
        struct State: Equatable {}
        enum Action {
          case tapped, `default`
          case scrolled(offset: Double)
          case element(id: Int, action: Sort)
        }
        enum Sort { case name, date }
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """)
    #expect(
      compilation.expansion("_JournalCaseNamed", .extension, on: "Feature.Action") == """
        extension Feature.Action: StackNavigation._JournalCaseNamed {
          func _appendJournalCaseName(to name: inout StackNavigation._JournalCaseName) {
            switch self {
            case .tapped:
                name._case("tapped")
            case .`default`:
                name._case("default")
            case let .scrolled(v0):
                name._case("scrolled", v0)
            case let .element(v0, v1):
                name._case("element", lastEnumOf: v0, v1)
            }
          }
        }

        extension Feature.Action: StackNavigation._JournalJSONWritable {
          func _writeJournalJSON(to json: inout StackNavigation._JournalJSON) throws {
            switch self {
            case .tapped:
              try json._case(self, 0, "tapped")
              json._endCase()
            case .`default`:
              try json._case(self, 1, "default")
              json._endCase()
            case let .scrolled(v0):
              try json._case(self, 2, "scrolled")
              try json._member("offset", v0)
              json._endCase()
            case let .element(v0, v1):
              try json._case(self, 3, "element")
              try json._member("action", v1)
              try json._member("id", v0)
              json._endCase()
            }
          }
        }
        """)
  }

  @Test func aPublicEnumGetsAPublicWitnessAndAPrivateOneNothing() throws {
    let compilation = try compileCleanly(
      """
      @Reducer
      public struct Feature {
        public struct State: Equatable {}
        public enum Action { case tapped }
        public init() {}
        public var body: some ReducerOf<Self> { EmptyReducer() }
      }

      @_JournalCaseNamed
      private enum Hidden { case tapped }
      """)
    #expect(
      compilation.expansion("_JournalCaseNamed", .extension, on: "Feature.Action") == """
        extension Feature.Action: StackNavigation._JournalCaseNamed {
          public func _appendJournalCaseName(to name: inout StackNavigation._JournalCaseName) {
            switch self {
            case .tapped:
                name._case("tapped")
            }
          }
        }

        extension Feature.Action: StackNavigation._JournalJSONWritable {
          public func _writeJournalJSON(to json: inout StackNavigation._JournalJSON) throws {
            switch self {
            case .tapped:
              try json._case(self, 0, "tapped")
              json._endCase()
            }
          }
        }
        """)
    // A private enum's buffer is named with a discriminator: look for its text instead.
    #expect(!compilation.expansions.contains { $0.text.contains("extension Hidden") })
  }

  @Test func anEnumWithCasesInsideIfConfigGetsNothing() throws {
    let compilation = try compileCleanly(
      """
      @_JournalCaseNamed
      enum Action {
        case tapped
        #if DEBUG
          case debugTapped
        #endif
      }
      """)
    #expect(compilation.expansion("_JournalCaseNamed", .extension, on: "Action") == "")
  }
}

@Suite struct ObservableStateMacroTests {
  @Test func addsNoMembersAndWritesAStructsStoredProperties() throws {
    // Equatable and Codable are still synthesized; the struct gets a JSON writer of its stored
    // properties, in key order, and the table of the fields a binding writes (its stored `var`s,
    // in declaration order), and nothing else. (Not named `State`: the mangled name of the
    // expansion's buffer would then shorten the macro's name.)
    let compilation = try compileCleanly(
      """
      import Foundation

      @ObservableState
      struct Screen: Equatable, Codable {
        var count = 0
        var title: String?
        let id: Int
        var doubled: Int { count * 2 }
        var observed = 1 { didSet {} }
        var zone, area: Int8
        static let shared = 0
      }

      func roundTrip(_ state: Screen) throws -> Bool {
        try JSONDecoder().decode(Screen.self, from: JSONEncoder().encode(state)) == state
      }
      """)
    #expect(compilation.expansion("ObservableState", .member, on: "Screen") == "")
    #expect(
      compilation.expansion("ObservableState", .extension, on: "Screen") == """
        extension Screen: StackNavigation._JournalJSONWritable {
          func _writeJournalJSON(to json: inout StackNavigation._JournalJSON) throws {
            try json._object(self)
            try json._member("area", self.area)
            try json._member("count", self.count)
            try json._member("id", self.id)
            try json._member("observed", self.observed)
            try json._member("title", self.title)
            try json._member("zone", self.zone)
            json._endObject()
          }
        }

        extension Screen: StackNavigation._BindableFieldsProviding {
          static var _bindableFields: StackNavigation._BindableFields<Self> {
            var fields = StackNavigation._BindableFields<Self>()
            fields._field("count", \\Self.count)
            fields._field("title", \\Self.title)
            fields._field("observed", \\Self.observed)
            fields._field("zone", \\Self.zone)
            fields._field("area", \\Self.area)
            return fields
          }
        }
        """)
  }

  @Test func writesAPresentationThroughItsWrapper() throws {
    // `@Presents` is written as its synthesized `Encodable` writes it, through the wrapper (the
    // journal finds what is presented there); the state's JSON stays what `JSONEncoder` writes.
    let compilation = try compileCleanly(
      """
      import Foundation

      @ObservableState
      struct Screen: Equatable, Codable {
        var count = 0
        @Presents var alert: AlertState<Never>?
        @PresentationState var sheet: Int?
      }
      """)
    #expect(
      compilation.expansion("ObservableState", .extension, on: "Screen") == """
        extension Screen: StackNavigation._JournalJSONWritable {
          func _writeJournalJSON(to json: inout StackNavigation._JournalJSON) throws {
            try json._object(self)
            try json._member("alert", self._alert)
            try json._member("count", self.count)
            try json._member("sheet", self._sheet)
            json._endObject()
          }
        }

        extension Screen: StackNavigation._BindableFieldsProviding {
          static var _bindableFields: StackNavigation._BindableFields<Self> {
            var fields = StackNavigation._BindableFields<Self>()
            fields._field("count", \\Self.count)
            fields._field("alert", \\Self.alert)
            fields._field("sheet", \\Self.sheet)
            return fields
          }
        }
        """)
  }

  @Test func aStateInsideAPrivateFeatureGetsAFileprivateFieldTable() throws {
    // A test's `private struct Feature` holds an internal `State`: the table's type names it,
    // so from an extension at file scope it must be `fileprivate` to compile.
    let compilation = try compileCleanly(
      """
      import Foundation

      private struct Feature {
        @ObservableState
        struct State: Equatable, Codable {
          var count = 0
        }
      }
      """)
    // A private type's mangled name carries a discriminator: the expansion is found by its text.
    #expect(
      compilation.expansions.contains {
        $0.text.contains(
          "fileprivate static var _bindableFields: StackNavigation._BindableFields<Self> {")
      }, "\(compilation.output)")
  }

  @Test func whatAStrangerWritesStillCompiles() throws {
    // Private and backticked properties, a property named as the writer's parameter, generic
    // types, payloads that are not `Encodable`, an indirect enum: the generated writers compile
    // without a warning wherever the type does.
    let compilation = try compileCleanly(
      """
      import Foundation

      @ObservableState
      struct Form: Equatable, Codable {
        private var secret = 1
        var `default` = ""
        var json: [String: Int] = [:]
        let fixed: Int
        private(set) var count: Int? = nil
        var nested: Inner = Inner()
        private struct Secret: Codable, Equatable {}
        struct Inner: Codable, Equatable { var value = 0 }
      }

      @ObservableState
      struct Box<Value: Codable & Equatable>: Equatable, Codable {
        var value: Value
        var values: [Value] = []
      }

      @_JournalCaseNamed
      indirect enum Tree<Leaf> {
        case leaf(Leaf)
        case node(Tree, Tree)
        case pair((Int, Int))
        case callback(() -> Void)
        case optional(Leaf?, count: Int?)
        case none
      }
      """)
    let form = try #require(compilation.expansion("ObservableState", .extension, on: "Form"))
    #expect(form.contains("try json._member(\"default\", self.`default`)"))
    #expect(form.contains("try json._member(\"json\", self.json)"))
    #expect(form.contains("try json._member(\"secret\", self.secret)"))
    // A binding writes the `var`s it can reach from outside: not the private one, nor the
    // `let`, nor the one whose setter is private.
    #expect(form.contains(#"fields._field("default", \Self.`default`)"#))
    #expect(form.contains(#"fields._field("json", \Self.json)"#))
    #expect(form.contains(#"fields._field("nested", \Self.nested)"#))
    for hidden in ["secret", "fixed", "count"] {
      #expect(!form.contains("fields._field(\"\(hidden)\""), "\(hidden)")
    }
    let box = try #require(compilation.expansion("ObservableState", .extension, on: "Box"))
    #expect(box.contains(#"fields._field("value", \Self.value)"#))
    #expect(box.contains(#"fields._field("values", \Self.values)"#))
    let tree = try #require(compilation.expansion("_JournalCaseNamed", .extension, on: "Tree"))
    #expect(tree.contains("_JournalJSONWritable"))
  }

  @Test func aStateIsolatedToTheMainActorStillCompiles() throws {
    // Its writer and its table of fields could not conform it to a nonisolated protocol: none
    // is generated.
    let compilation = try compileCleanly(
      """
      @MainActor
      @ObservableState
      struct Screen: Equatable, Codable {
        var count = 0
        var title = ""
      }
      """)
    #expect(compilation.expansion("ObservableState", .extension, on: "Screen") == "")
  }

  @Test func writesNoJSONWhereTheEncodingMayNotBeSynthesized() throws {
    // Own coding keys, an own `encode(to:)`, a property wrapper, a lazy property, a private
    // struct: the journal writes these through `Encodable`.
    let compilation = try compileCleanly(
      """
      @propertyWrapper struct Clamped: Codable, Equatable {
        var wrappedValue: Int
      }

      @ObservableState
      struct Keyed: Codable {
        var count = 0
        enum CodingKeys: String, CodingKey { case count = "n" }
      }

      @ObservableState
      struct Custom: Encodable {
        var count = 0
        func encode(to encoder: any Encoder) throws {}
      }

      @ObservableState
      struct Wrapped: Codable {
        @Clamped var count: Int
      }

      @ObservableState
      struct Lazy {
        lazy var count = 0
      }

      @ObservableState
      private struct Hidden: Codable {
        var count = 0
      }

      @_JournalCaseNamed
      enum Sort: String, Codable {
        case name, date
      }
      """)
    // Their fields still get a table, which does not depend on how the state encodes: a
    // binding names its field by the property's name. A property wrapper other than a
    // presentation, and a lazy property, are left out of it.
    for name in ["Keyed", "Custom"] {
      #expect(
        compilation.expansion("ObservableState", .extension, on: name) == """
          extension \(name): StackNavigation._BindableFieldsProviding {
            static var _bindableFields: StackNavigation._BindableFields<Self> {
              var fields = StackNavigation._BindableFields<Self>()
              fields._field("count", \\Self.count)
              return fields
            }
          }
          """)
    }
    for name in ["Wrapped", "Lazy"] {
      #expect(
        compilation.expansion("ObservableState", .extension, on: name) == """
          extension \(name): StackNavigation._BindableFieldsProviding {
            static var _bindableFields: StackNavigation._BindableFields<Self> {
              StackNavigation._BindableFields<Self>()
            }
          }
          """)
    }
    #expect(!compilation.expansions.contains { $0.text.contains("extension Hidden") })
    // An enum with raw values is named, and written through its `Encodable` (the raw value).
    let sort = try #require(compilation.expansion("_JournalCaseNamed", .extension, on: "Sort"))
    #expect(sort.contains("_JournalCaseNamed"))
    #expect(!sort.contains("_JournalJSONWritable"))
  }

  @Test func classIsDiagnosed() throws {
    let compilation = try MacroCompiler.compile(
      """
      @ObservableState
      class Model {}
      """)
    #expect(compilation.status != 0)
    #expect(
      compilation.diagnostics == [
        .init(
          line: 1, column: 1, severity: "error",
          message: "'@ObservableState' applies to a feature's state: a struct or an enum")
      ])
  }
}

@Suite struct MacroCompilerTests {
  @Test func aWrongExpectationFails() throws {
    let compilation = try compileCleanly(
      """
      @Reducer
      struct Feature {
        struct State: Equatable {}
        enum Action { case tap }
        var body: some ReducerOf<Self> { EmptyReducer() }
      }
      """)
    withKnownIssue {
      // The extension is there, so expecting none records an issue.
      #expect(compilation.expansion("Reducer", .extension, on: "Feature") == "")
    }
    withKnownIssue {
      // No such declaration: the lookup itself records an issue.
      _ = compilation.expansion("Reducer", .member, on: "Missing")
    }
  }

  @Test func aSourceThatDoesNotCompileIsSeen() throws {
    let compilation = try MacroCompiler.compile("let x: Int = \"text\"")
    #expect(compilation.status != 0)
    #expect(compilation.diagnostics.first?.line == 1)
    #expect(compilation.diagnostics.first?.severity == "error")
  }
}
