import ArgumentParser

/// The one rule for options that take a count or a sequence (`--from`, `-n`, `--actions`, …).
///
/// Each such option is declared with `parsing: .unconditional`, so `-1` is read as its value
/// rather than taken for another option (which ArgumentParser reports as "Missing value"), and
/// its command's `validate()` checks it with one of these functions, so every command refuses a
/// negative number with the same kind of sentence, naming the option and the value given.
/// `diff`'s positional FROM and TO, which no parsing strategy reads when dash-prefixed, are
/// taken as the command's unrecognized inputs and checked the same way, named FROM and TO.
public enum NumberOption {
  /// Throws a usage error when `value` is a sequence below 0.
  public static func requireSequence(_ value: Int64?, _ option: String) throws {
    if let value, value < 0 {
      throw ValidationError("\(option) \(value): sequences start at 0, the initial state.")
    }
  }

  /// Throws a usage error when `value` is a count below `minimum`.
  public static func requireCount<Number: BinaryInteger>(
    _ value: Number?, _ option: String, atLeast minimum: Number = 0
  ) throws {
    if let value, value < minimum {
      throw ValidationError("\(option) \(value): needs \(minimum) or more.")
    }
  }
}
