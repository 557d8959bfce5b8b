#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackStorage

  extension PostgresJournal {
    /// The schema version of the journal at `url`, the version this build writes, and the
    /// names of the migrations opening it would apply, for `stackjournal migrate --dry-run`.
    ///
    /// Read-only: the schema is checked as opening checks it (one that is not a journal, newer,
    /// or with edited migrations is refused), and never changed. A schema that does not exist
    /// yet is at version 0.
    public static func pendingMigrations(
      url: String,
      options: Options = .init()
    ) throws -> (current: Int, target: Int, pending: [String]) {
      let location = try PostgresLocation(url: url)
      var readOnly = options
      readOnly.readOnly = true
      let configuration = connectionConfiguration(location, readOnly)
      let outcome = BlockingBridge().wait(
        timeout: options.connectTimeout + options.operationTimeout
      ) {
        let connection = try await PostgresConnection.connect(
          configuration: configuration, id: 0, logger: Logger(label: "StackStoragePostgres"))
        do {
          let state = try await PostgresSchemaMigrator.check(connection, location)
          try? await connection.close()
          return state.version
        } catch {
          try? await connection.close()
          throw error
        }
      }
      switch outcome {
      case .success(let version)?:
        let pending = PostgresMigration.all.dropFirst(version).map(\.name)
        return (version, PostgresMigration.latestVersion, pending)
      case .failure(let error)?:
        throw StorageError(postgres: error, location, doing: "reading the journal's schema")
      case nil:
        throw StorageError(
          code: .timedOut,
          message: "PostgreSQL at \(location.description) did not answer within "
            + "\(options.connectTimeout + options.operationTimeout) while reading the journal's "
            + "schema. Check that the server is up and reachable.")
      }
    }
  }
#endif
