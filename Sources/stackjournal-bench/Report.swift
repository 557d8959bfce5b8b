import Foundation

/// Timing and printing of figures.
enum Report {
  /// Runs `body` and returns the seconds it took.
  static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  /// Runs `body` in `count` tasks at once and waits for all of them: each append suspends while
  /// it waits for the journal, so the writers are concurrent whatever the number of cores.
  static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask { await body(index) }
      }
    }
  }


  /// Prints the section's title.
  static func title(_ text: String) {
    print(text)
  }

  /// Prints one measured figure, `count` operations in `seconds`, and returns the rate.
  @discardableResult
  static func rate(_ label: String, count: Int, seconds: Double, unit: String = "actions/s")
    -> Double
  {
    let rate = Double(count) / seconds
    let figure = "\(grouped(rate)) \(unit)"
    print(
      "  \(label.column)"
        + "\(figure.padding(toLength: 20, withPad: " ", startingAt: 0))"
        + "(\(count) in \(String(format: "%.2f", seconds)) s)")
    return rate
  }

  /// Prints the rate and bytes written per action of a measured cost, and returns the rate.
  @discardableResult
  static func rate(_ label: String, cost: Cost) -> Double {
    let figure = "\(grouped(cost.rate)) actions/s"
    print(
      "  \(label.column)"
        + "\(figure.padding(toLength: 20, withPad: " ", startingAt: 0))"
        + "\(grouped(Double(cost.bytesPerAction)).leftPadded(7)) B written/action  "
        + "(\(cost.actions) in \(String(format: "%.2f", cost.seconds)) s)")
    return cost.rate
  }

  /// Prints a ratio of two rates.
  static func ratio(_ label: String, _ value: Double) {
    let figure = String(format: "%.2f", value)
    print("  \(label.column)\(figure)")
  }

  /// Prints a note line.
  static func note(_ text: String) {
    print("  \(text)")
  }

  static func grouped(_ value: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.maximumFractionDigits = 0
    return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
  }
}

extension String {
  /// The label padded to the column of figures, and at least one space before it.
  var column: String { padding(toLength: Swift.max(52, count + 1), withPad: " ", startingAt: 0) }

  func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
