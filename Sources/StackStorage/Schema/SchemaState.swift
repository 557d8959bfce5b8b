import GRDB

/// What a database says about its schema: the marks in its header and its migration record.
struct SchemaState {
  /// One row of `schema_migrations`.
  struct Applied {
    var version: Int
    var name: String
    var checksum: String
  }

  /// The value of `PRAGMA application_id` of every StackJournal database: "SJRN".
  static let applicationID: Int32 = 0x534A_524E

  var applicationID: Int32
  var userVersion: Int
  var applied: [Applied]
  /// Whether the database holds no table, index, view or trigger at all.
  var isBlank: Bool
  var hasMigrationTable: Bool
  /// The objects of its schema.
  var shape = SchemaShape(objects: [])

  /// Reads the schema state through a GRDB connection, inside its current transaction.
  static func read(_ db: Database) throws -> SchemaState {
    try read { sql in
      try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map(String.fromDatabaseValue) }
    }
  }

  /// Reads the schema state through a read-only connection.
  static func read(_ connection: ReadOnlyConnection) throws -> SchemaState {
    try read(connection.rows)
  }

  /// Reads the schema state with `query`, which returns rows of text; only reads.
  private static func read(_ query: (String) throws -> [[String?]]) throws -> SchemaState {
    let marks =
      try query(
        """
        SELECT CAST((SELECT application_id FROM pragma_application_id) AS TEXT),
          CAST((SELECT user_version FROM pragma_user_version) AS TEXT),
          CAST((SELECT count(*) FROM sqlite_master) AS TEXT),
          CAST((SELECT count(*) FROM sqlite_master
            WHERE type = 'table' AND name = 'schema_migrations') AS TEXT)
        """
      ).first ?? []
    func integer(_ index: Int) -> Int {
      marks.indices.contains(index) ? marks[index].flatMap { Int($0) } ?? 0 : 0
    }
    let hasMigrationTable = integer(3) > 0
    var applied: [Applied] = []
    if hasMigrationTable {
      applied = try query(
        "SELECT CAST(version AS TEXT), name, checksum FROM schema_migrations ORDER BY version"
      ).map(Applied.init(texts:))
    }
    return SchemaState(
      applicationID: Int32(truncatingIfNeeded: integer(0)),
      userVersion: integer(1),
      applied: applied,
      isBlank: integer(2) == 0,
      hasMigrationTable: hasMigrationTable,
      shape: SchemaShape(objects: try query(SchemaShape.query).map(SchemaShape.Object.init))
    )
  }

  /// The migrations still to apply, after checking the database is ours, not newer than this
  /// build and applied exactly the migrations this build ships.
  func pending(_ migrations: [Migration], path: String?) throws -> [Migration] {
    let place = path.map { "The file \($0)" } ?? "The in-memory database"
    let isFresh = applicationID == 0 && userVersion == 0 && isBlank
    if isFresh { return migrations }
    guard applicationID == Self.applicationID else {
      throw StorageError(
        code: .notStackJournal,
        message: "\(place) is an SQLite database, but not a StackJournal database "
          + "(application_id \(Self.hex(applicationID)), expected "
          + "\(Self.hex(Self.applicationID))). It was left unchanged; open a StackJournal file, "
          + "or give a new path to create one.",
        path: path
      )
    }
    guard userVersion != 0 || isBlank else {
      throw StorageError(
        code: .notStackJournal,
        message: "\(place) carries StackJournal's application_id but holds tables and no "
          + "schema version (user_version 0): no StackJournal build writes such a file, so it "
          + "is not migrated. It was left unchanged; open a StackJournal file, or give a new "
          + "path to create one.",
        path: path
      )
    }
    let latest = migrations.count
    let newest = max(userVersion, applied.map(\.version).max() ?? 0)
    guard newest <= latest else {
      throw StorageError(
        code: .newerSchema,
        message: "\(place) has schema version \(newest), newer than version \(latest), the "
          + "newest this build of StackJournal knows. It was left unchanged; open it with a "
          + "newer StackJournal.",
        path: path
      )
    }
    let expected = Array(stride(from: 1, through: userVersion, by: 1))
    guard userVersion >= 0, applied.map(\.version) == expected else {
      throw StorageError(
        code: .corrupt,
        message: "\(place) has schema version \(userVersion) but records the migrations "
          + "\(applied.map(\.version)): its schema record is inconsistent. It was left "
          + "unchanged; restore it from a backup.",
        path: path
      )
    }
    for record in applied {
      let migration = migrations[record.version - 1]
      guard record.checksum == migration.checksum else {
        throw StorageError(
          code: .checksumMismatch,
          message: "\(place) records migration \(record.name) with checksum \(record.checksum), "
            + "but this build's \(migration.name) has checksum \(migration.checksum): the "
            + "migration was edited after it was applied. The file was left unchanged; restore "
            + "the original migration and add the change as a new migration.",
          path: path
        )
      }
    }
    return Array(migrations.dropFirst(userVersion))
  }

  /// Throws ``StorageError/Code/alteredSchema`` when the schema is not the one the migrations
  /// made at its version: for a writer, any difference; for a reader, one in the tables.
  func checkShape(path: String, forWriting: Bool) throws {
    try shape.check(version: userVersion, path: path, forWriting: forWriting)
  }

  private static func hex(_ value: Int32) -> String {
    "0x" + String(UInt32(bitPattern: value), radix: 16, uppercase: true)
  }
}

extension SchemaState.Applied {
  /// A row of text read by `SELECT CAST(version AS TEXT), name, checksum`; missing or
  /// unreadable fields read as 0 and "".
  init(texts: [String?]) {
    func text(_ index: Int) -> String? { texts.indices.contains(index) ? texts[index] : nil }
    self.init(
      version: text(0).flatMap { Int($0) } ?? 0, name: text(1) ?? "", checksum: text(2) ?? "")
  }
}
