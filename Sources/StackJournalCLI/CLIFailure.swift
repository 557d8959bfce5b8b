import ArgumentParser
import Foundation
import StackRestoration
import StackStorage

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
/// run" (2) and usage errors (64).
func reportingErrors(_ body: () async throws -> Void) async throws {
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
    Terminal.standardError.write("Error: \(failure.message)\n")
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
    default:
      self.init(message: String(describing: error))
    }
    message = message.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.joined(separator: " ")
  }
}
