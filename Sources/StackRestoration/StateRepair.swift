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
      guard var document = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
      else { throw firstError }
      var skipped: [SkippedItem] = []
      var error: DecodingError = firstError
      // Each round cuts one stack at the element the error points into; the error of a stack
      // that cannot be cut (outside any stack element) ends the attempt.
      for _ in 0..<10_000 {
        guard let cut = truncateStack(in: &document, at: tokens(of: codingPath(of: error)))
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
        let data = try JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed])
        do {
          return (try decoder.decode(State.self, from: data), skipped)
        } catch let next as DecodingError {
          error = next
        }
      }
      throw firstError
    }
  }

  /// A coding path as stack-locator tokens: array positions and object keys.
  static func tokens(of codingPath: [any CodingKey]) -> [StackLocator.Token] {
    codingPath.map { key in
      if let index = key.intValue,
        key.stringValue == "Index \(index)" || key.stringValue == "\(index)"
      {
        return .index(index)
      }
      return .key(key.stringValue)
    }
  }

  struct Cut {
    let stackCodingPath: [StackLocator.Token]
    let firstSkippedID: StackElementID
    let keptIDs: [StackElementID]
  }

  /// Cuts the deepest stack on the error's path at the element the path goes through.
  static func truncateStack(in document: inout Any, at path: [StackLocator.Token]) -> Cut? {
    for position in stride(from: path.count - 2, through: 0, by: -1) {
      guard path[position] == .key("elements"), case let .index(index) = path[position + 1]
      else { continue }
      let stackPath = Array(path[..<position])
      var cut: Cut?
      let updated = StackLocator.updatingStack(at: stackPath[...], in: document) { stack in
        guard let elements = stack["elements"] as? [[String: Any]], index < elements.count
        else { return }
        let ids = elements.map { StackElementID(generation: ($0["id"] as? Int) ?? -1) }
        stack["elements"] = Array(elements[..<index])
        cut = Cut(stackCodingPath: stackPath, firstSkippedID: ids[index], keptIDs: Array(ids[..<index]))
      }
      if let updated, let cut {
        document = updated
        return cut
      }
    }
    return nil
  }

  /// The stored path of the stack that was cut: the stack whose element IDs start with the
  /// kept IDs followed by the first skipped one.
  static func stackPath(for cut: Cut, in stacks: [StackRecord]) -> String {
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
