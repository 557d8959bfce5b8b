import Foundation

/// The draws of one reducer run: while a recording store runs its reducer for an action it
/// collects what the reducer draws from `\.uuid`, `\.date`, `\.withRandomNumberGenerator` and
/// ``journaledDraw(_:_:)``; while replay runs the reducer for a journaled entry it hands the
/// entry's values back in the same order.
///
/// It is found through a task-local value that is set only around the reducer's run: an effect
/// started by the reducer runs in its own task, without it, so what effects draw comes from the
/// dependency itself and is not part of the entry (their results come back as journaled actions).
package final class DrawCapture: @unchecked Sendable {
  /// The capture of the reducer run in progress, if any.
  @TaskLocal package static var current: DrawCapture?

  private enum Mode {
    case recording
    case replaying([DependencyDraw])
  }

  // A reducer runs synchronously on one task; the lock guards against a reducer that hands a
  // generator to threads of its own.
  private let lock = NSLock()
  private let mode: Mode
  private var drawn: [DependencyDraw] = []
  private var position = 0
  private var problems: [String] = []

  private init(mode: Mode) {
    self.mode = mode
  }

  /// A capture that records what is drawn.
  package static func recording() -> DrawCapture {
    DrawCapture(mode: .recording)
  }

  /// A capture that hands back `values`, in order.
  package static func replaying(_ values: [DependencyDraw]) -> DrawCapture {
    DrawCapture(mode: .replaying(values))
  }

  /// What was drawn, in order (recording).
  package var values: [DependencyDraw] {
    lock.withLock { drawn }
  }

  /// The draws a replay asked for that the journal does not hold, or holds of another kind:
  /// what the reducer drew from a source the journal did not keep. Empty when it drew only what
  /// was journaled.
  package var unjournaledDraws: [String] {
    lock.withLock { problems }
  }

  /// The journaled values a replay did not ask for, as one sentence; empty when it drew them all.
  package var unusedDraws: [String] {
    lock.withLock {
      guard case let .replaying(values) = mode, position < values.count else { return [] }
      let left = values[position...].map(\.source)
      return [
        "the reducer drew \(position) of the \(values.count) values the journal holds; it did "
          + "not draw \(left.count == 1 ? "the last, from" : "the last \(left.count), from") "
          + Set(left).sorted().joined(separator: ", ")
      ]
    }
  }

  /// Runs `body` with this capture current.
  package func run<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$current.withValue(self, operation: body)
  }

  /// The next value: drawn from `live` and kept when recording, the journal's when replaying.
  /// A replay that asks for a value the journal does not hold, or of another kind, notes it and
  /// draws from `live` so the reducer can go on.
  func draw<Value>(
    from source: String,
    live: () -> Value,
    wrap: (Value) -> DependencyDraw?,
    unwrap: (DependencyDraw) -> Value?
  ) -> Value {
    // The live dependency runs without the capture, so a generator that is itself a journaled
    // one (a store inside a store's reducer) does not keep the value twice.
    func liveValue() -> Value { Self.$current.withValue(nil, operation: live) }
    switch mode {
    case .recording:
      let value = liveValue()
      if let draw = wrap(value) { lock.withLock { drawn.append(draw) } }
      return value
    case let .replaying(values):
      let next: DependencyDraw? = lock.withLock {
        defer { position += 1 }
        return position < values.count ? values[position] : nil
      }
      let ordinal = lock.withLock { position }
      guard let next else {
        note(
          "the reducer drew a value from \(source) as its draw \(ordinal), but the journal "
            + "holds only \(values.count) for this entry")
        return liveValue()
      }
      guard let value = unwrap(next) else {
        note(
          "the reducer drew a value from \(source) as its draw \(ordinal), but the journal "
            + "holds one from \(next.source) there")
        return liveValue()
      }
      return value
    }
  }

  private func note(_ problem: String) {
    lock.withLock { problems.append(problem) }
  }
}

/// A value an app's own non-deterministic dependency draws, journaled like `\.uuid`'s: inside a
/// recording store's reducer the value `draw` returns is kept with the entry, and when the entry
/// is replayed the kept value comes back instead of calling `draw`. Anywhere else — a plain
/// `Store`, a `TestStore`, an effect — it is `draw()`.
///
/// Use it in the live value of the dependency, so the feature's code does not change:
///
/// ```swift
/// extension DiceClient: DependencyKey {
///   static let liveValue = DiceClient(
///     roll: { journaledDraw("dice.roll") { Int.random(in: 1...6) } }
///   )
/// }
/// ```
///
/// - Parameters:
///   - name: What the value is, unique among the app's journaled draws (1 to 200 characters,
///     not `uuid`, `date` or `random`): replay checks it, so a reducer that now draws something
///     else is reported instead of handed a value of another kind.
///   - draw: Draws the value.
public func journaledDraw<Value: Codable>(_ name: String, _ draw: () -> Value) -> Value {
  guard let capture = DrawCapture.current else { return draw() }
  return capture.draw(
    from: "journaledDraw(\"\(name)\")",
    live: draw,
    wrap: { value in
      do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        return .value(name: name, json: json)
      } catch {
        reportIssue("journaledDraw(\"\(name)\"): the value could not be encoded: \(error)")
        return nil
      }
    },
    unwrap: { draw in
      guard case let .value(drawnName, json) = draw, drawnName == name else { return nil }
      return try? JSONDecoder().decode(Value.self, from: Data(json.utf8))
    })
}

extension DependencyValues {
  /// These values with `\.uuid`, `\.date` and `\.withRandomNumberGenerator` wrapped so that what
  /// a reducer draws from them goes through the current ``DrawCapture``; outside a capture they
  /// draw as before.
  package func journalingDraws() -> DependencyValues {
    // The wrapped values are read when drawn, not now: a test that sets none of them and whose
    // reducer draws nothing must not be told they are unimplemented.
    let base = self
    var values = self
    values.uuid = UUIDGenerator {
      guard let capture = DrawCapture.current else { return base.uuid() }
      return capture.draw(
        from: "\\.uuid", live: { base.uuid() }, wrap: { .uuid($0) },
        unwrap: { if case let .uuid(value) = $0 { value } else { nil } })
    }
    values.date = DateGenerator {
      guard let capture = DrawCapture.current else { return base.date.now }
      return capture.draw(
        from: "\\.date", live: { base.date.now }, wrap: { .date($0) },
        unwrap: { if case let .date(value) = $0 { value } else { nil } })
    }
    values.withRandomNumberGenerator = WithRandomNumberGenerator(JournaledGenerator(base: base))
    return values
  }
}

/// The generator behind a journaling `\.withRandomNumberGenerator`: each 64-bit word goes
/// through the current capture.
private struct JournaledGenerator: RandomNumberGenerator, Sendable {
  /// The values whose `\.withRandomNumberGenerator` draws the words.
  let base: DependencyValues

  mutating func next() -> UInt64 {
    let base = self.base
    guard let capture = DrawCapture.current else {
      return base.withRandomNumberGenerator { $0.next() }
    }
    return capture.draw(
      from: "\\.withRandomNumberGenerator", live: { base.withRandomNumberGenerator { $0.next() } },
      wrap: { .random($0) },
      unwrap: { if case let .random(value) = $0 { value } else { nil } })
  }
}
