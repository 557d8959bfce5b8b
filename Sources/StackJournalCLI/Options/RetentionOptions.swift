import ArgumentParser
import StackStorage

/// The flags `compact` and `prune` share: plan only, or give the freed pages back afterwards.
struct RetentionOptions: ParsableArguments {
  @Flag(help: "Only report what would go; change nothing.")
  var dryRun = false

  @Flag(help: "Rebuild the file afterwards to give freed space back (needs room for a copy).")
  var vacuum = false

  init() {}
}

extension RetentionOptions {
  /// Runs `VACUUM` on a journal whose deletion was committed: a failure is returned, not thrown,
  /// so the command still reports the deletion, then ends with ``vacuumFailure(_:deleted:)``.
  static func vacuum(_ journal: SQLiteJournal) -> (any Error)? {
    do {
      try journal.vacuum()
      return nil
    } catch {
      return error
    }
  }

  /// The error a command ends with when its deletion (`deleted`, in words) was committed and
  /// only its `VACUUM` failed afterwards: what stays deleted first, then the `VACUUM`'s error.
  static func vacuumFailure(_ error: any Error, deleted: String) -> CLIFailure {
    CLIFailure(
      message: "The deletion was committed and stays: \(deleted). Only the VACUUM after it "
        + "failed: " + CLIFailure(error).message)
  }
}
