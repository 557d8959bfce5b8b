import Logging

extension SQLiteJournal {
  /// How a journal opens its file and writes.
  public struct Options: Sendable {
    /// How hard appends work to survive failures; `Durability.full` by default.
    public var durability: Durability
    /// Write a snapshot with every entry whose sequence is a multiple of this; 0 never does.
    public var snapshotInterval: Int
    /// The app's current version of its state/action encoding. Payloads and snapshot states
    /// are upcast to it on read, and a newer one is an error. `nil` reads them raw (the CLI).
    public var payloadVersion: Int?
    /// The upcasters from each older version to the next.
    public var upcasters: [PayloadUpcaster]
    /// Never create, migrate or write: a missing file and an older schema are refused.
    public var readOnly: Bool
    /// Apply pending migrations when opening. When `false`, the journal opens read-write but
    /// refuses a database that has pending migrations.
    public var migrate: Bool
    /// For a read-only journal that waits for a writer's new entries (`log --follow`). Such a
    /// reader takes part in SQLite's write-ahead log and may create its `-wal` and `-shm` files;
    /// other read-only journals of a file no writer has open create no file at all.
    public var watchesForWrites: Bool
    /// Called with the SQL of each statement the journal's connections run, as written: the
    /// values bound to its `?` never appear. `BEGIN` and `COMMIT` show where each transaction
    /// starts and ends, so it tells how many a call runs. `nil` (the default) traces nothing.
    public var statementTrace: (@Sendable (String) -> Void)?
    /// Where the journal reports what an operator wants to know: opening, creating and
    /// migrating the file (`info`, each migration `notice`), a sequence conflict (`info`, with
    /// the session and the sequences), a failed group-commit batch (`error`) and closing
    /// (`info`). Session identifiers appear escaped (`SessionID.escaped`). By default the
    /// records are discarded.
    public var logger: Logger

    /// Creates options; every parameter has the default a writing app wants.
    public init(
      durability: Durability = .full,
      snapshotInterval: Int = 100,
      payloadVersion: Int? = nil,
      upcasters: [PayloadUpcaster] = [],
      readOnly: Bool = false,
      migrate: Bool = true,
      watchesForWrites: Bool = false,
      statementTrace: (@Sendable (String) -> Void)? = nil,
      logger: Logger = SQLiteJournal.discardingLogger
    ) {
      self.durability = durability
      self.snapshotInterval = snapshotInterval
      self.payloadVersion = payloadVersion
      self.upcasters = upcasters
      self.readOnly = readOnly
      self.migrate = migrate
      self.watchesForWrites = watchesForWrites
      self.statementTrace = statementTrace
      self.logger = logger
    }
  }

  /// The logger of a journal opened without one: it drops every record.
  public static let discardingLogger = Logger(
    label: "StackJournal", factory: { _ in SwiftLogNoOpLogHandler() })
}
