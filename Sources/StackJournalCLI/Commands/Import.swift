import ArgumentParser
import Foundation
import StackStorage

#if PostgreSQL
  import StackStoragePostgres
#endif

extension StackJournalCommand {
  /// `stackjournal import FILE`: a session export into a new session, all or nothing.
  public struct Import: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Import a session export (see `export`) into a new session, all or nothing.",
      discussion: """
        The whole file is read and checked first: header, every line, sequences, every delta. \
        A malformed line is reported with its number. Then a verdict: fine (imported), risky \
        (imported only with --force: the export comes from a newer schema, or holds payload \
        versions newer than the target app's), impossible (never: the session exists — choose \
        another identifier with --as — or the file's format is newer than this build). The \
        session is written in one transaction that re-verifies it; on any refusal or failure \
        nothing is written. A journal that does not exist yet is built under a temporary name \
        in the same directory, readable by its owner only, and put in place only when it is \
        complete and nothing has appeared at that path meanwhile; a failed import leaves no \
        file behind and removes none it did not create, and the next import removes what a \
        killed one left. A line longer than \(SessionExportFile.maximumLineBytes >> 20) MiB is \
        refused.

        The target app's payload version is the highest stored in the file, or --payload-version.
        """)

    @OptionGroup var database: DatabaseOptions

    @Argument(
      help: ArgumentHelp(
        "The session export to read (- for standard input; a FIFO is read once).",
        valueName: "file"))
    var file: String

    @Option(
      name: .customLong("as"),
      help: ArgumentHelp("Import under this session identifier.", valueName: "session"))
    var newSession: String?

    @Flag(help: "Import even when the verdict is risky.")
    var force = false

    @Flag(help: "Check the file and give the verdict; write nothing.")
    var dryRun = false

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "The payload version of the app that reads the target (default: the highest stored).",
        valueName: "n"))
    var payloadVersion: Int?

    @OptionGroup var output: OutputOptions

    /// Creates the command; argument parsing fills it.
    public init() {}

    /// Checks the payload version.
    public func validate() throws {
      try NumberOption.requireCount(payloadVersion, "--payload-version")
    }

    /// Checks, judges and imports the file.
    public func run() async throws {
      try await reportingErrors {
        let input = try ImportInput(file)
        defer { input.remove() }
        do {
          try await importing(input)
        } catch {
          throw input.naming(error)
        }
      }
    }

    /// Checks, judges and imports the export `input` holds.
    private func importing(_ input: ImportInput) async throws {
      let file = input.name
      let export = try SessionExportFile.read(path: input.path)
      let destination = try ImportDestination(database)
      // The verdict is reached read-only; the journal is opened for writing only to import.
      let target = try await destination.target()
      let id = newSession.map(SessionID.init(rawValue:))
      let verdict = export.verdict(into: target, as: id, payloadVersion: payloadVersion)
      let session = id ?? export.header.session
      let refused = verdict.level == .impossible || (verdict.level == .risky && !force)
      if refused {
        let reasons = verdict.reasons.filter { $0.level != .fine }.map(\.message)
        throw CLIFailure(
          message: "Refused, verdict \(verdict.level.rawValue)"
            + (verdict.level == .risky ? " (--force imports anyway)" : "") + ": "
            + reasons.joined(separator: "; ") + ". Nothing was imported.")
      }
      var result: ImportResult?
      if !dryRun {
        result = try await destination.importSession(export, as: id)
      }
      let out = Terminal.standardOutput
      defer { out.flush() }
      let header = export.header
      if output.json {
        out.rawLine(
          JSONValue.object([
            ("file", .string(file)), ("database", .string(destination.place)),
            ("session", .string(session.rawValue)),
            ("sourceSession", .string(header.session.rawValue)),
            ("formatVersion", .int(header.formatVersion)),
            ("schemaVersion", .int(header.schemaVersion)),
            (
              "payloadVersions",
              export.payloadVersions.map {
                .object([("min", .int($0.lowerBound)), ("max", .int($0.upperBound))])
              } ?? .null
            ),
            ("verdict", .string(verdict.level.rawValue)),
            (
              "reasons",
              .array(
                verdict.reasons.map {
                  .object([
                    ("level", .string($0.level.rawValue)), ("message", .string($0.message)),
                  ])
                })
            ),
            ("imported", .bool(result != nil)),
            ("entries", .int(header.entryCount)),
            ("snapshots", .int(header.snapshotCount)),
            ("headSequence", .int(header.headSequence)),
            ("dryRun", .bool(dryRun)),
          ]).pretty)
        return
      }
      out.line(
        "\(file): session \(header.session), format \(header.formatVersion), schema "
          + "\(header.schemaVersion), payload versions "
          + (export.payloadVersions.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "-")
          + ", \(header.entryCount) entries, \(header.snapshotCount) snapshots, head "
          + "\(header.headSequence).")
      out.line(
        "Verdict: \(verdict.level.rawValue)" + (verdict.level == .risky ? " (forced)" : ""))
      for reason in verdict.reasons { out.line("  \(reason.level.rawValue): \(reason.message)") }
      if dryRun {
        out.line("Dry run: nothing was written.")
      } else if let result {
        out.line(
          "Imported as session \(result.session) into \(destination.place): \(result.entries) "
            + "entries, "
            + "\(result.snapshots) snapshots, head \(result.headSequence); it re-verified clean.")
      }
    }
  }
}

/// Where `import` writes: an SQLite file (existing, or created by the import) or, in a build
/// with the `PostgreSQL` trait, a PostgreSQL database, whose journal schema is created there
/// when missing.
struct ImportDestination {
  let database: DatabaseOptions
  /// The file, or the server's URL without its password.
  let place: String
  private let fileExists: Bool

  init(_ database: DatabaseOptions) throws {
    self.database = database
    if DatabaseOptions.isPostgresURL(database.path) {
      #if PostgreSQL
        place = try PostgresLocation(url: database.path).description
        fileExists = false
      #else
        throw DatabaseOptions.noPostgresSupport
      #endif
    } else {
      place = database.path
      var isDirectory: ObjCBool = false
      fileExists = FileManager.default.fileExists(atPath: database.path, isDirectory: &isDirectory)
      if fileExists { try database.requireFile() }
    }
  }

  /// What the destination tells the verdict.
  func target() async throws -> ImportTarget {
    #if PostgreSQL
      if DatabaseOptions.isPostgresURL(database.path) {
        // Read-only: a database without the journal's schema is not given one by a dry run
        // or a refusal.
        let plan = try await PostgresJournal.pendingMigrations(url: database.path)
        if plan.current == 0 {
          return ImportTarget(
            schemaVersion: plan.target, payloadVersion: nil, existingSessions: [],
            comparesSchemaVersions: false, payloadVersionRange: Int(Int32.min)...Int(Int32.max))
        }
        return try await PostgresJournal(
          url: database.path, options: .init(readOnly: true, maximumConnections: 2)
        ).importTarget()
      }
    #endif
    return fileExists ? try SessionImporter().target(database.openSQLiteReadOnly()) : .newFile
  }

  /// Imports the checked file.
  func importSession(_ export: SessionExportFile, as id: SessionID?) async throws -> ImportResult {
    #if PostgreSQL
      if DatabaseOptions.isPostgresURL(database.path) {
        return try await postgres().importSession(export, as: id)
      }
    #endif
    return fileExists
      ? try SessionImporter().importSession(export, as: id, into: database.openForWriting())
      : try SessionImporter().importSessionIntoNewJournal(export, as: id, at: database.path)
  }

  #if PostgreSQL
    /// The PostgreSQL journal, its schema created or migrated when needed.
    private func postgres() async throws -> PostgresJournal {
      try await PostgresJournal(url: database.path, options: .init(maximumConnections: 2))
    }
  #endif
}
