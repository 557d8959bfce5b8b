import ArgumentParser

#if canImport(Glibc)
  // `stdout`, the C library's stream, is read once the command ended.
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

extension StackJournalCommand {
  /// Flushes standard output — `Terminal`'s buffer and the C library's, where `print` writes —
  /// and ends the process with status 2 and a message when any of it could not be written (a
  /// full disk, `> /dev/full`), so a script never takes a cut-short output for a whole one.
  /// An executable calls it when its command returned:
  ///
  /// ```swift
  /// static func main() async {
  ///   await main(nil)
  ///   StackJournalCommand.finishStandardOutput()
  /// }
  /// ```
  public static func finishStandardOutput() {
    Terminal.standardOutput.flush()
    finishCStandardOutput()
  }
}

/// Flushes the C library's standard output; exits as ``StackJournalCommand/finishStandardOutput()``
/// says when it cannot.
private func finishCStandardOutput() {
  errno = 0
  let failed = fflush(nil) != 0
  let code = errno
  guard failed || ferror(stdout) != 0 else { return }
  // A reader that went away (a closed pipe) is no error, as for `Terminal`.
  if code == EPIPE { return }
  let reason = code == 0 ? "an output error" : String(cString: strerror(code))
  Terminal.standardError.write(
    "Error: cannot write to standard output: \(reason); the output is incomplete.\n")
  exit(ExitCode.trouble.rawValue)
}
