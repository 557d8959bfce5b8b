import Foundation
import StackJournalCore
import StackNavigation

/// Decodes a stored state, cutting stacks short at the first element that does not decode.
enum StateRepair {
  static func decode<State: Decodable>(
    _ type: State.Type,
    from json: Data,
    stacks: [StackRecord]
  ) throws -> (state: State, skipped: [SkippedItem]) {
    let decoder = JSONDecoder()
    do {
      return (try decoder.decode(State.self, from: json), [])
    } catch let firstError as DecodingError {
      guard JSONText.storageProblem(json) == nil else { throw firstError }
      var json = json
      var skipped: [SkippedItem] = []
      var error: DecodingError = firstError
      // Each round cuts one stack at the element the error points into; the error of a stack
      // that cannot be cut (outside any stack element) ends the attempt.
      for _ in 0..<10_000 {
        guard
          let (cutJSON, cut) = StateStacks.cuttingStack(
            in: json, at: tokens(of: codingPath(of: error)))
        else {
          throw RestorationError(
            code: .undecodableState,
            message: """
              The stored state does not decode into \(State.self), and the failure is not \
              inside a stack element that could be left out: \(describe(error)). \
              Register an upcaster for the state, or restore with the app version that wrote it.
              """)
        }
        skipped.append(
          SkippedItem(
            kind: .element(stackPath: stackPath(for: cut, in: stacks), id: cut.firstSkippedID),
            reason: describe(error)))
        json = cutJSON
        do {
          return (try decoder.decode(State.self, from: json), skipped)
        } catch let next as DecodingError {
          error = next
        }
      }
      throw firstError
    }
  }

  /// A coding path as the steps of a ``StackPath``: array positions and object keys.
  static func tokens(of codingPath: [any CodingKey]) -> [StackPath.Component] {
    codingPath.map { key in
      if let index = key.intValue,
        key.stringValue == "Index \(index)" || key.stringValue == "\(index)"
      {
        return .index(index)
      }
      return .key(key.stringValue)
    }
  }

  /// The stored path of the stack that was cut: the stack whose element IDs start with the
  /// kept IDs followed by the first skipped one.
  static func stackPath(for cut: StateStacks.Cut, in stacks: [StackRecord]) -> String {
    let expected = cut.keptIDs + [cut.firstSkippedID]
    let match = stacks.first { Array($0.elements.map(\.id).prefix(expected.count)) == expected }
    return match?.path
      ?? cut.stackCodingPath.map {
        switch $0 {
        case let .key(key): return key
        case let .index(index): return "[\(index)]"
        case let .element(id): return "[#\(id)]"
        }
      }.joined(separator: ".")
  }

  static func codingPath(of error: DecodingError) -> [any CodingKey] {
    switch error {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .keyNotFound(_, context), let .dataCorrupted(context):
      return context.codingPath
    @unknown default:
      return []
    }
  }

  static func describe(_ error: DecodingError) -> String {
    switch error {
    case let .typeMismatch(_, context), let .valueNotFound(_, context),
      let .keyNotFound(_, context), let .dataCorrupted(context):
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        .joined(separator: ".")
      return "\(context.debugDescription) (at \(path.isEmpty ? "the top" : path))"
    @unknown default:
      return "\(error)"
    }
  }
}
