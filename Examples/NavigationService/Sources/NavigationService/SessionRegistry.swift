import Foundation
import Logging
import StackNavigation
import StackRestoration
import StackStorage
import Synchronization

/// The store of one session and the queue that runs the requests on it one after another, reads
/// and writes alike, so that a response reports its own action's sequence and no read sees an
/// older sequence than a response before it.
///
/// The store is replaced only inside the queue: when it is not open yet, when an append showed it
/// behind the journal (a `sequenceConflict`), or when a read finds the journal's head moved. With
/// every request of this process going through the queue, a moved head means another process
/// appended.
final class SessionHandle: Sendable {
  typealias WizardStore = RecordingStore<SignupWizard.State, SignupWizard.Action>

  let id: SessionID
  private let journal: any JournalBackend
  private let onRehydrate: @Sendable () -> Void
  private let queue = SerialQueue()
  /// `nil` until the first request opens it, and after an append found it behind the journal.
  private let store: Mutex<WizardStore?>
  /// Requests holding or waiting on this session, and when the last one finished.
  private let activity = Mutex<(running: Int, finished: ContinuousClock.Instant)>((0, .now))

  init(
    id: SessionID, journal: any JournalBackend, store: WizardStore?,
    onRehydrate: @escaping @Sendable () -> Void
  ) {
    self.id = id
    self.journal = journal
    self.store = Mutex(store)
    self.onRehydrate = onRehydrate
  }

  /// Marks a request as holding the session (the registry does, before handing it out).
  func begin() { activity.withLock { $0.running += 1 } }
  /// Marks a request as done with the session.
  func end() { activity.withLock { $0 = ($0.running - 1, .now) } }

  /// Runs `body` with the session's store once the requests before it are done; returns whether
  /// the store was opened from the journal for it.
  ///
  /// - Parameter checkingHead: Compare the store's sequence with the journal's head first (one
  ///   cheap read) and reopen the store when another process appended since.
  func perform<T: Sendable>(
    checkingHead: Bool = false, logger: Logger,
    _ body: @escaping @Sendable (WizardStore) async throws -> T
  ) async throws -> (T, rehydrated: Bool) {
    try await queue.run { [self] in
      var current = store.withLock { $0 }
      var reason = current == nil ? "not in memory, or behind the journal after a 409" : ""
      if let open = current, checkingHead,
        try await journal.headSequence(session: id) != open.sequence
      {
        current = nil
        reason = "another process appended"
      }
      var rehydrated = false
      if current == nil {
        // `open` replays the journal from the nearest snapshot.
        let opened = try await RecordingStore.open(
          session: id, journal: journal, initialState: SignupWizard.State()
        ) {
          SignupWizard()
        }
        store.withLock { $0 = opened }
        current = opened
        rehydrated = true
        onRehydrate()
        logger.info(
          "session opened from the journal",
          metadata: [
            "session": "\(id.rawValue)", "sequence": "\(opened.sequence)", "reason": "\(reason)",
          ])
      }
      do {
        return (try await body(current!), rehydrated)
      } catch let error as StorageError where error.code == .sequenceConflict {
        // Another process appended first: the next request reopens the store.
        store.withLock { $0 = nil }
        throw error
      }
    }
  }

  /// Whether no request has touched the session since `deadline` and none holds it: only then
  /// may it be dropped, so that two stores of one session never exist in this process at once.
  func isIdle(since deadline: ContinuousClock.Instant) -> Bool {
    activity.withLock { $0.running == 0 && $0.finished < deadline }
  }
}

/// Runs closures one at a time, in the order they were submitted.
actor SerialQueue {
  private var tail: Task<Void, Never>?

  func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let previous = tail
    let task = Task<T, any Error> {
      await previous?.value
      return try await body()
    }
    tail = Task { _ = try? await task.value }
    return try await task.value
  }
}

/// The sessions in memory: one ``SessionHandle`` per active session, whose store is opened
/// (rehydrated from the journal) by the first request that needs it; a session is dropped after
/// `idleTimeout` without requests, never while a request holds it.
public actor SessionRegistry {
  /// The journal every session lives in.
  public nonisolated let journal: any JournalBackend
  /// How long a session stays in memory without requests.
  public nonisolated let idleTimeout: Duration
  /// Where the registry counts rehydrations, and the service its requests.
  public nonisolated let metrics: ServiceMetrics
  private var entries: [SessionID: SessionHandle] = [:]
  private nonisolated let counters = Mutex((rehydrations: 0, evictions: 0))

  /// Creates a registry over a journal.
  public init(
    journal: any JournalBackend, idleTimeout: Duration, metrics: ServiceMetrics = ServiceMetrics()
  ) {
    self.journal = journal
    self.idleTimeout = idleTimeout
    self.metrics = metrics
  }

  /// The number of sessions in memory.
  public var cachedCount: Int { entries.count }
  /// How many times a session's store was opened from the journal: it was not in memory, or
  /// another process had appended to it.
  public nonisolated var rehydrations: Int { counters.withLock { $0.rehydrations } }
  /// How many sessions were dropped for being idle.
  public nonisolated var evictions: Int { counters.withLock { $0.evictions } }

  /// Creates a session and runs `body` on its new store; throws `sessionExists` when the
  /// identifier is taken.
  func create<T: Sendable>(
    _ id: SessionID, logger: Logger,
    _ body: @escaping @Sendable (SessionHandle.WizardStore) async throws -> T
  ) async throws -> T {
    let handle = try await insertNew(id)
    defer { handle.end() }
    return try await handle.perform(logger: logger, body).0
  }

  private func insertNew(_ id: SessionID) async throws -> SessionHandle {
    let exists = try await journal.session(id) != nil
    if exists || entries[id] != nil {
      throw StorageError(code: .sessionExists, message: "The session already exists.")
    }
    let store = try await RecordingStore.open(
      session: id, journal: journal, initialState: SignupWizard.State()
    ) {
      SignupWizard()
    }
    let handle = makeHandle(id, store: store)
    handle.begin()
    entries[id] = handle
    return handle
  }

  /// Runs `body` on the session's store, after the requests on the session before it. Returns
  /// whether the store was opened from the journal for this request. Throws `unknownSession`
  /// for a session the journal does not hold.
  nonisolated func withSession<T: Sendable>(
    _ id: SessionID, checkingHead: Bool = false, logger: Logger,
    _ body: @escaping @Sendable (SessionHandle.WizardStore) async throws -> T
  ) async throws -> (T, rehydrated: Bool) {
    var handle = await lease(id)
    if handle == nil {
      guard try await journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "No session has that identifier.")
      }
      handle = await leaseOrInsert(id)
    }
    defer { handle!.end() }
    return try await handle!.perform(checkingHead: checkingHead, logger: logger, body)
  }

  private func lease(_ id: SessionID) -> SessionHandle? {
    entries[id]?.begin()
    return entries[id]
  }

  private func leaseOrInsert(_ id: SessionID) -> SessionHandle {
    let handle = entries[id] ?? makeHandle(id, store: nil)
    entries[id] = handle
    handle.begin()
    return handle
  }

  private func makeHandle(_ id: SessionID, store: SessionHandle.WizardStore?) -> SessionHandle {
    SessionHandle(id: id, journal: journal, store: store) { [weak self] in
      self?.counters.withLock { $0.rehydrations += 1 }
      self?.metrics.recordRehydration()
    }
  }

  /// Drops the sessions idle for longer than `idleTimeout`; returns how many.
  @discardableResult
  public func evictIdle(now: ContinuousClock.Instant = .now) -> Int {
    let deadline = now - idleTimeout
    let idle = entries.filter { $0.value.isIdle(since: deadline) }.map(\.key)
    for id in idle { entries[id] = nil }
    counters.withLock { $0.evictions += idle.count }
    return idle.count
  }

  /// Drops every session (at shutdown, once no request is in flight).
  public func removeAll() {
    entries.removeAll()
  }
}
