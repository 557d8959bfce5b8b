#if PostgreSQL
  import Foundation
  #if canImport(Glibc)
    import Glibc
  #endif
  import StackStorage

  /// A command run on a thread of its own with `posix_spawn` and `waitpid`, so the test goes on
  /// while it runs. (Foundation's `Process.waitUntilExit()` was seen to hang here on a child that
  /// had already exited, with the connection pool's threads running.)
  final class BackgroundCommand: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var status: Int32?
    /// The child's process identifier.
    let pid: pid_t

    /// Starts `arguments[0]` with the arguments that follow; with `output`, its standard output
    /// goes to that file (created or truncated) and its standard error to `errors` (dropped
    /// without it).
    init(_ arguments: [String], output: String? = nil, errors: String? = nil) throws {
      var pid: pid_t = 0
      let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      if let output {
        posix_spawn_file_actions_addopen(
          &actions, STDOUT_FILENO, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let errors {
          posix_spawn_file_actions_addopen(
            &actions, STDERR_FILENO, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
          posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
      }
      let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
      guard spawned == 0 else {
        throw StorageError(
          code: .database, message: "could not start \(arguments): errno \(spawned)")
      }
      self.pid = pid
      let child = pid
      Thread.detachNewThread { [self] in
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) == -1 && errno == EINTR {}
        // The exit status when the command exited, otherwise 128 + the signal that ended it.
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        lock.withLock { status = code }
        finished.signal()
      }
    }

    var isFinished: Bool { lock.withLock { status != nil } }

    /// Sends SIGKILL unless the command has ended.
    func kill() {
      if !isFinished { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// Waits for the command and returns its exit status.
    func wait() -> Int32 {
      if let status = lock.withLock({ status }) { return status }
      finished.wait()
      finished.signal()
      return lock.withLock { status ?? -1 }
    }
  }
#endif
