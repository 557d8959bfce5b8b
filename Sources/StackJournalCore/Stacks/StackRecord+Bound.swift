import StackNavigation

extension StackRecord {
  /// The most elements one stack may hold: 100,000.
  ///
  /// Appends, session creation and `import` refuse a stack above it with
  /// ``StorageError/Code/stackTooLarge``, writing nothing. Navigation stacks hold a handful of
  /// screens; the bound leaves thousands of times that, and keeps what every step costs in
  /// check: an entry's delta lists all of its stack's IDs (about 700 KB at the bound), and
  /// `import` and `verify` hold a snapshot's row and the stacks they rebuild. On one stack at
  /// the bound with small elements (a 13 MiB export), a release build's `import` peaks at about
  /// 112 MiB and `verify` at 93 MiB (see docs/Reliability.md).
  public static let maximumElements = 100_000

  /// Throws ``StorageError/Code/stackTooLarge`` when the stack at `path` would hold `count`
  /// elements, more than `limit`.
  package static func checkSize(
    path: String, count: Int, limit: Int = maximumElements, file: String? = nil
  ) throws {
    guard count > limit else { return }
    throw StorageError(
      code: .stackTooLarge,
      message: "The stack `\(StorageError.printable(path))` would hold \(count) elements, more "
        + "than the \(limit) one stack may hold. Nothing was written.",
      path: file)
  }
}

extension StackDelta {
  /// Throws ``StorageError/Code/stackTooLarge`` when a change leaves a stack with more than
  /// `limit` elements.
  package func checkSizes(limit: Int = StackRecord.maximumElements) throws {
    for change in changes where !change.removed {
      try StackRecord.checkSize(path: change.path, count: change.ids.count, limit: limit)
    }
  }
}

extension StackRecord {
  /// The stacks sorted by path; throws when two share a path or one holds more than
  /// ``StackRecord/maximumElements``.
  package static func canonical(_ stacks: [StackRecord]) throws -> [StackRecord] {
    let sorted =
      zip(stacks, stacks.dropFirst()).allSatisfy { $0.path < $1.path }
      ? stacks : stacks.sorted { $0.path < $1.path }
    for stack in sorted {
      try StackRecord.checkSize(path: stack.path, count: stack.elements.count)
    }
    for (previous, stack) in zip(sorted, sorted.dropFirst()) where previous.path == stack.path {
      throw StorageError(
        code: .duplicateStackPath,
        message: "The state lists two stacks at the path `\(stack.path)`; encode it with "
          + "StateEncoding.encode(_:), which gives each stack its own path."
      )
    }
    return sorted
  }
}
