#if PostgreSQL
  import PostgresNIO

  /// A part of a statement with the values it binds, written by one table's owner for a
  /// statement of another owner to include (a column, a subquery, a lateral join): its values
  /// are bound where it is included, so both are written by interpolation, as a `PostgresQuery`
  /// is. `"s.id"` is a fragment that binds nothing; `"\(session.rawValue)"` binds the session.
  struct SQLFragment: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Part: Sendable {
      case text(String)
      case value(@Sendable (inout PostgresQuery.StringInterpolation) -> Void)
    }

    fileprivate var parts: [Part]

    init(stringLiteral value: String) {
      parts = [.text(value)]
    }

    init(stringInterpolation: StringInterpolation) {
      parts = stringInterpolation.parts
    }

    /// The fragment as a statement of its own.
    var query: PostgresQuery { "\(self)" }

    struct StringInterpolation: StringInterpolationProtocol {
      fileprivate var parts: [Part] = []

      init(literalCapacity: Int, interpolationCount: Int) {}

      mutating func appendLiteral(_ literal: String) {
        parts.append(.text(literal))
      }

      /// Text written into the statement as it is: a name, never a value.
      mutating func appendInterpolation(unescaped text: String) {
        parts.append(.text(text))
      }

      /// A value, bound as a parameter.
      mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable & Sendable>(
        _ value: Value
      ) {
        parts.append(.value { $0.appendInterpolation(value) })
      }

      /// A value or `NULL`, bound as a parameter.
      mutating func appendInterpolation<Value: PostgresDynamicTypeEncodable & Sendable>(
        _ value: Value?
      ) {
        parts.append(.value { $0.appendInterpolation(value) })
      }

      mutating func appendInterpolation(_ fragment: SQLFragment) {
        parts += fragment.parts
      }
    }
  }

  extension PostgresQuery.StringInterpolation {
    /// A fragment's text, its values bound as parameters of this statement.
    mutating func appendInterpolation(_ fragment: SQLFragment) {
      for part in fragment.parts {
        switch part {
        case .text(let text): appendLiteral(text)
        case .value(let bind): bind(&self)
        }
      }
    }
  }
#endif
