import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@testable import StackNavigationMacros

private let macros: [String: MacroSpec] = [
  "Reducer": MacroSpec(type: ReducerMacro.self, conformances: ["Reducer", "CaseReducer"]),
  "ObservableState": MacroSpec(type: ObservableStateMacro.self),
]

/// Expands `source` with this package's macros; a mismatch is a Swift Testing issue.
func expectExpansion(
  _ source: String,
  expands expected: String,
  diagnostics: [DiagnosticSpec] = [],
  macros specs: [String: MacroSpec] = macros,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  assertMacroExpansion(
    source, expandedSource: expected, diagnostics: diagnostics,
    macroSpecs: specs, indentationWidth: .spaces(2)
  ) { failure in
    Issue.record(
      Comment(rawValue: failure.message),
      sourceLocation: sourceLocation)
  }
}

@Suite struct ReducerMacroTests {
  @Test func enumOfFeatures() {
    expectExpansion(
      """
      @Reducer
      enum Path {
        case addItem(AddFeature)
        case detailItem(DetailFeature)
      }
      """,
      expands: """
        enum Path {
          case addItem(AddFeature)
          case detailItem(DetailFeature)

          @CasePaths.CasePathable
          @dynamicMemberLookup
          enum State: StackNavigation.CaseReducerState {
            typealias StateReducer = Path
            case addItem(AddFeature.State)
            case detailItem(DetailFeature.State)
          }

          @CasePaths.CasePathable
          enum Action {
            case addItem(AddFeature.Action)
            case detailItem(DetailFeature.Action)
          }

          typealias Body = StackNavigation.Reduce<Self.State, Self.Action>

          static var body: Body {
            return StackNavigation.Reduce(
              StackNavigation.CombineReducers {
                StackNavigation.Scope(state: \\Self.State.Cases.addItem, action: \\Self.Action.Cases.addItem) {
                  AddFeature()
                }
                StackNavigation.Scope(state: \\Self.State.Cases.detailItem, action: \\Self.Action.Cases.detailItem) {
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
                store.scope(state: \\Self.State.Cases.addItem, action: \\Self.Action.Cases.addItem)
              )
            case .detailItem:
              return .detailItem(
                store.scope(state: \\Self.State.Cases.detailItem, action: \\Self.Action.Cases.detailItem)
              )
            }
          }
        }

        extension Path: StackNavigation.CaseReducer, StackNavigation.Reducer {
        }
        """)
  }

  @Test func publicEnumOfFeaturesGeneratesPublicMembers() {
    expectExpansion(
      """
      @Reducer
      public enum Destination {
        case counter(Features.Counter)
      }
      """,
      expands: """
        public enum Destination {
          case counter(Features.Counter)

          @CasePaths.CasePathable
          @dynamicMemberLookup
          public enum State: StackNavigation.CaseReducerState {
            public typealias StateReducer = Destination
            case counter(Features.Counter.State)
          }

          @CasePaths.CasePathable
          public enum Action {
            case counter(Features.Counter.Action)
          }

          public typealias Body = StackNavigation.Reduce<Self.State, Self.Action>

          public static var body: Body {
            return StackNavigation.Reduce(
              StackNavigation.CombineReducers {
                StackNavigation.Scope(state: \\Self.State.Cases.counter, action: \\Self.Action.Cases.counter) {
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
                store.scope(state: \\Self.State.Cases.counter, action: \\Self.Action.Cases.counter)
              )
            }
          }
        }

        extension Destination: StackNavigation.CaseReducer, StackNavigation.Reducer {
        }
        """)
  }

  @Test func structFeature() {
    expectExpansion(
      """
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
        }
      }
      """,
      expands: """
        struct Feature {
          struct State: Equatable {
            var path = StackState<Path.State>()
          }
          @CasePaths.CasePathable
          enum Action {
            case path(StackActionOf<Path>)
          }
          struct Path {
            @CasePaths.CasePathable @dynamicMemberLookup
            enum State: Equatable {
              case counter(Counter.State)
            }
            @CasePathable enum Action {
              case counter(Counter.Action)
            }
          }
        }

        extension Feature.Path: StackNavigation.Reducer {
        }

        extension Feature: StackNavigation.Reducer {
        }
        """)
  }

  @Test func structThatAlreadyConformsGetsNoSecondConformance() {
    expectExpansion(
      """
      @Reducer
      struct Feature: Reducer {
        enum Action {
          case tapped
        }
      }
      """,
      expands: """
        struct Feature: Reducer {
          @CasePaths.CasePathable
          enum Action {
            case tapped
          }
        }
        """,
      // What the compiler passes for a type that already conforms to `Reducer`.
      macros: [
        "Reducer": MacroSpec(type: ReducerMacro.self, conformances: ["CaseReducer"])
      ])
  }

  @Test func caseWithoutAFeatureIsDiagnosed() {
    expectExpansion(
      """
      @Reducer
      enum Path {
        case home
        case pair(A, B)
        case labeled(feature: A)
        case tuple((A, B))
        case fine(Fine)
      }
      """,
      expands: """
        enum Path {
          case home
          case pair(A, B)
          case labeled(feature: A)
          case tuple((A, B))
          case fine(Fine)
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@Reducer' enum case 'home' must hold exactly one feature reducer, unlabeled, "
            + "as in 'case home(HomeFeature)'", line: 3, column: 8),
        DiagnosticSpec(
          message: "'@Reducer' enum case 'pair' must hold exactly one feature reducer, unlabeled, "
            + "as in 'case pair(PairFeature)'", line: 4, column: 8),
        DiagnosticSpec(
          message: "'@Reducer' enum case 'labeled' must hold exactly one feature reducer, "
            + "unlabeled, as in 'case labeled(LabeledFeature)'", line: 5, column: 8),
        DiagnosticSpec(
          message: "'@Reducer' enum case 'tuple' must hold exactly one feature reducer, unlabeled, "
            + "as in 'case tuple(TupleFeature)'", line: 6, column: 8),
      ])
  }

  @Test func enumThatDeclaresItsOwnStateIsDiagnosed() {
    expectExpansion(
      """
      @Reducer
      enum Path {
        case counter(Counter)
        enum State {
          case counter(Counter.State)
        }
      }
      """,
      expands: """
        enum Path {
          case counter(Counter)
          enum State {
            case counter(Counter.State)
          }
        }
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@Reducer' enum generates 'State' from its cases; remove this declaration",
          line: 4, column: 3)
      ])
  }

  @Test func classIsDiagnosed() {
    expectExpansion(
      """
      @Reducer
      final class Feature {}
      """,
      expands: """
        final class Feature {}
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@Reducer' applies to a struct (a feature) or an enum of features "
            + "('@Reducer enum Path { case counter(CounterFeature) }')", line: 1, column: 1)
      ])
  }
}

@Suite struct ObservableStateMacroTests {
  @Test func addsNothingToAStruct() {
    expectExpansion(
      """
      @ObservableState
      struct State: Equatable, Codable {
        var count = 0
      }
      """,
      expands: """
        struct State: Equatable, Codable {
          var count = 0
        }
        """)
  }

  @Test func classIsDiagnosed() {
    expectExpansion(
      """
      @ObservableState
      class Model {}
      """,
      expands: """
        class Model {}
        """,
      diagnostics: [
        DiagnosticSpec(
          message: "'@ObservableState' applies to a feature's state: a struct or an enum",
          line: 1, column: 1)
      ])
  }
}

@Suite struct ExpansionCheckTests {
  @Test func aWrongExpectationFails() {
    withKnownIssue {
      expectExpansion(
        """
        @Reducer
        struct Feature {}
        """,
        expands: """
          struct Feature {}
          """)
    }
  }
}
