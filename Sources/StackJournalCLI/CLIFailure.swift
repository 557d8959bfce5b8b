import ArgumentParser
import Foundation
import StackJournalCore
import StackRestoration

/// An error a command reports on one line of standard error, with the exit status to end with.
struct CLIFailure: Error, CustomStringConvertible {
  /// The one-line message.
  var message: String
  /// The exit status.
  var status: ExitCode = .trouble

  var description: String { message }
}

extension ExitCode {
  /// The command ran and found problems (`verify`).
  static let problemsFound = ExitCode(1)
  /// The command could not do what it was asked: bad input, a missing file, a refused import.
  static let trouble = ExitCode(2)
}

/// Runs a command's body, turning any error but a usage error into one line on standard error
/// (`Error: …`) and exit status 2, so scripts can tell "problems found" (1) from "could not
/// run" (2) and usage errors (64). Commands an app adds to its executable use it too.
public func reportingErrors(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as ExitCode {
    throw error
  } catch let error as ValidationError {
    throw error
  } catch let error as CleanExit {
    throw error
  } catch {
    let failure = CLIFailure(error)
    Terminal.standardError.write("Error: \(Terminal.printable(failure.message))\n")
    throw failure.status
  }
}

extension CLIFailure {
  /// The message of any error, on one line.
  init(_ error: any Error) {
    switch error {
    case let failure as CLIFailure:
      self = failure
    case let error as StorageError:
      self.init(message: error.message)
    case let error as RestorationError:
      self.init(message: error.message)
    case let error as POSIXError:
      self.init(message: String(cString: strerror(error.code.rawValue)) + ".")
    default:
      let nsError = error as NSError
      if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
        self.init(message: Self.describe(nsError))
      } else {
        self.init(message: String(describing: error))
      }
    }
    message = message.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: " ")
  }
}

extension CLIFailure {
  /// The system's reason for a file error (`No space left on device`), from a POSIX error or
  /// a Foundation error that wraps one; `nil` for other errors.
  static func reason(_ error: any Error) -> String? {
    if let posix = error as? POSIXError {
      return String(cString: strerror(posix.code.rawValue))
    }
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(nsError.code)))
    }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
      return reason(underlying)
    }
    return nil
  }

  /// A Foundation error in words: the file and the system's reason, never a debug dump.
  static func describe(_ error: NSError) -> String {
    let file = (error.userInfo[NSFilePathErrorKey] as? String)
      ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    let what = file.map { "Cannot access \($0)" } ?? "A file operation failed"
    return what + ": " + (reason(error) ?? error.localizedDescription) + "."
  }
}
