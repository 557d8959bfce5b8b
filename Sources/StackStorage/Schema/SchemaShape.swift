import ConcurrencyExtras
import GRDB

/// The objects of a database's schema (`sqlite_master`), compared with those the migrations
/// make: a trigger, view, index or table someone added, changed or replaced by hand is a
/// deviation. Writers refuse a file with any; readers refuse one whose tables are not the
/// migrations' tables (a view in place of a table could return anything, or never end).
struct SchemaShape: Equatable {
  /// One row of `sqlite_master`, its SQL with quotes dropped and spaces collapsed (SQLite
  /// quotes a renamed table's name, and did so differently across versions).
  struct Object: Hashable, Comparable {
    var type: String
    var name: String
    var table: String
    var sql: String?

    init(type: String, name: String, table: String, sql: String?) {
      self.type = type
      self.name = name
      self.table = table
      self.sql = sql.map(Self.normalized)
    }

    /// A row read by ``SchemaShape/query``; missing fields read as "".
    init(texts: [String?]) {
      func text(_ index: Int) -> String? { texts.indices.contains(index) ? texts[index] : nil }
      self.init(type: text(0) ?? "", name: text(1) ?? "", table: text(2) ?? "", sql: text(3))
    }

    static func normalized(_ sql: String) -> String {
      sql.filter { $0 != "\"" }.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func < (lhs: Object, rhs: Object) -> Bool {
      (lhs.type, lhs.name) < (rhs.type, rhs.name)
    }

    /// `trigger wipe on journal`, `table sessions`.
    var label: String {
      let printable = StorageError.printable(name)
      return type == "table" || type == "view" || table == name
        ? "\(type) \(printable)" : "\(type) \(printable) on \(StorageError.printable(table))"
    }
  }

  /// The query that reads the objects, as text.
  static let query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"

  var objects: [Object]

  /// The objects of the database `db` reads, inside its current transaction.
  static func read(_ db: Database) throws -> SchemaShape {
    SchemaShape(
      objects: try Row.fetchAll(db, sql: query).map {
        Object(texts: $0.databaseValues.map(String.fromDatabaseValue))
      })
  }

  /// What the migrations make at each version, computed once by migrating a database in
  /// memory.
  private static let expected = LockIsolated<[Int: SchemaShape]>([:])

  /// The shape the migrations make at `version` (the empty shape at 0).
  static func expected(atVersion version: Int) throws -> SchemaShape {
    if let shape = expected.withValue({ $0[version] }) { return shape }
    let queue = try DatabaseQueue()
    if version > 0 {
      try SchemaMigrator.migrate(queue, through: version, path: nil)
    }
    let shape = try queue.read(read)
    expected.withValue { $0[version] = shape }
    return shape
  }

  /// One sentence per object that differs from `expected`, and whether any of them concerns a
  /// table the migrations made (missing, changed, or something else in its place).
  func deviations(from expected: SchemaShape) -> (problems: [String], tablesDiffer: Bool) {
    var problems: [String] = []
    var tablesDiffer = false
    let known = Dictionary(expected.objects.map { ($0.name, $0) }) { first, _ in first }
    let present = Dictionary(objects.map { ($0.name, $0) }) { first, _ in first }
    for object in objects.sorted() {
      guard let made = known[object.name] else {
        problems.append("the \(object.label) is not part of the schema the migrations made")
        continue
      }
      if made.type != object.type {
        problems.append(
          "the \(object.label) stands where the migrations made the \(made.label)")
        tablesDiffer = tablesDiffer || made.type == "table"
      } else if made != object {
        problems.append("the \(object.label) differs from the one the migrations made")
        tablesDiffer = tablesDiffer || made.type == "table"
      }
    }
    for made in expected.objects.sorted() where present[made.name] == nil {
      problems.append("the \(made.label) the migrations made is missing")
      tablesDiffer = tablesDiffer || made.type == "table"
    }
    return (problems, tablesDiffer)
  }

  /// Throws when the file's schema deviates from the migrations' at its version: any
  /// deviation for a writer, one concerning a table for a reader.
  func check(version: Int, path: String, forWriting: Bool) throws {
    let (problems, tablesDiffer) = deviations(from: try Self.expected(atVersion: version))
    guard !problems.isEmpty, forWriting || tablesDiffer else { return }
    throw StorageError(
      code: .alteredSchema,
      message: "The file \(path) has a schema other than the one its migrations made: "
        + problems.prefix(5).joined(separator: "; ")
        + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
        + ". It was left unchanged; remove what was added by hand (`stackjournal verify` lists "
        + "it), or restore the file from a backup.",
      path: path)
  }
}

extension SQLiteJournal {
  /// What a reader of the file at `path` finds changed in its schema, without opening it as a
  /// journal: its schema version and one sentence per deviation. For `verify`, which reports a
  /// file that every other command refuses.
  package static func schemaDeviations(path: String) throws -> (version: Int, problems: [String])
  {
    let plan = try ReadOnlyAccess.plan(for: path, participating: false)
    let state = try DatabaseFile.readSchemaState(path, location: plan.location)
    let version = min(max(state.userVersion, 0), Migration.latestVersion)
    let expected = try SchemaShape.expected(atVersion: version)
    return (state.userVersion, state.shape.deviations(from: expected).problems)
  }
}

extension SQLiteJournal {
  /// Throws ``StorageError/Code/alteredSchema`` when the schema of the file at `path` is not
  /// the one its migrations made, as opening it for writing would; changes nothing. For a
  /// command that reads before it decides to write, so that it refuses before reading too.
  package static func requireUnalteredSchema(path: String) throws {
    // Missing, foreign or damaged files are refused by the open that follows, in its words.
    guard DatabaseFile.exists(path) else { return }
    try DatabaseFile.checkHeader(path)
    let plan = try ReadOnlyAccess.plan(for: path, participating: false)
    let state = try DatabaseFile.readSchemaState(path, location: plan.location)
    _ = try state.pending(Migration.all, path: path)
    try state.checkShape(path: path, forWriting: true)
  }
}
