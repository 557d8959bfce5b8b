extension CLIResult {
  /// A result of a run that a test started itself (through a pipe, on a terminal).
  public init(exitStatus: Int32, standardOutput: String, standardError: String) {
    self.init(status: exitStatus, stdout: standardOutput, stderr: standardError)
  }
}
