#if PostgreSQL
  import StackJournalCore

  extension PostgresJournal {
    /// How a PostgreSQL journal connects and writes.
    public struct Options: Sendable {
      /// Write a snapshot with every entry whose sequence is a multiple of this; 0 never does.
      public var snapshotInterval: Int
      /// The app's current version of its state/action encoding; payloads and snapshot states
      /// are upcast to it on read. `nil` reads them raw (the CLI).
      public var payloadVersion: Int?
      /// The upcasters from each older version to the next.
      public var upcasters: [PayloadUpcaster]
      /// Never create, migrate or write: every transaction is read-only on the server.
      public var readOnly: Bool
      /// Apply pending migrations when opening; when `false` an older schema is refused.
      public var migrate: Bool
      /// How long to wait for a connection to the server.
      public var connectTimeout: Duration
      /// How long one operation may take, waiting for a connection included, before it fails
      /// with `StorageError.Code.timedOut`.
      public var operationTimeout: Duration
      /// The most connections the journal's pool opens.
      public var maximumConnections: Int

      /// Creates options; every parameter has the default a writing service wants.
      public init(
        snapshotInterval: Int = 100,
        payloadVersion: Int? = nil,
        upcasters: [PayloadUpcaster] = [],
        readOnly: Bool = false,
        migrate: Bool = true,
        connectTimeout: Duration = .seconds(5),
        operationTimeout: Duration = .seconds(30),
        maximumConnections: Int = 16
      ) {
        self.snapshotInterval = snapshotInterval
        self.payloadVersion = payloadVersion
        self.upcasters = upcasters
        self.readOnly = readOnly
        self.migrate = migrate
        self.connectTimeout = connectTimeout
        self.operationTimeout = operationTimeout
        self.maximumConnections = maximumConnections
      }
    }
  }
#endif
