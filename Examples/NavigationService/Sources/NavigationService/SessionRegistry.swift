import Foundation
import StackNavigation
import StackRestoration
import StackStorage
import Synchronization

/// The store of one session, with the requests on it run one after another so that the sequence
/// and stack a response reports are those of its own action.
final class SessionHandle: Sendable {
  let store: RecordingStore<SignupWizard.State, SignupWizard.Action>
  private let queue = SerialQueue()
  /// Requests running or waiting on this session, and when the last one finished.
  private let activity = Mutex<(running: Int, finished: ContinuousClock.Instant)>((0, .now))

  init(store: RecordingStore<SignupWizard.State, SignupWizard.Action>) {
    self.store = store
  }

  func perform<T: Sendable>(
    _ body:
      @escaping @Sendable (RecordingStore<SignupWizard.State, SignupWizard.Action>)
      async throws -> T
  ) async throws -> T {
    let store = self.store
    activity.withLock { $0.running += 1 }
    defer { activity.withLock { $0 = ($0.running - 1, .now) } }
    return try await queue.run { try await body(store) }
  }

  /// Whether no request has touched the session since `deadline` and none is running: only then
  /// may it be dropped, so that two stores of one session never write at once.
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

/// The sessions in memory: one ``RecordingStore`` per active session, opened (rehydrated from the
/// journal) on the first request that needs it and dropped after `idleTimeout` without requests.
public actor SessionRegistry {
  struct Entry {
    let handle: SessionHandle
    var lastUsed: ContinuousClock.Instant
  }

  /// The journal every session lives in.
  public nonisolated let journal: any JournalBackend
  /// How long a session stays in memory without requests.
  public nonisolated let idleTimeout: Duration
  private var entries: [SessionID: Entry] = [:]
  private var opening: [SessionID: Task<SessionHandle, any Error>] = [:]
  /// How many times a session was opened from the journal because it was not in memory.
  public private(set) var rehydrations = 0
  /// How many sessions were dropped for being idle.
  public private(set) var evictions = 0

  /// Creates a registry over a journal.
  public init(journal: any JournalBackend, idleTimeout: Duration) {
    self.journal = journal
    self.idleTimeout = idleTimeout
  }

  /// The number of sessions in memory.
  public var cachedCount: Int { entries.count }

  /// Creates a session; throws `sessionExists` when the identifier is taken.
  func create(_ id: SessionID) throws -> SessionHandle {
    if try journal.session(id) != nil || entries[id] != nil {
      throw StorageError(code: .sessionExists, message: "The session already exists.")
    }
    let journal = self.journal
    let store = try RecordingStore.open(
      session: id, journal: journal, initialState: SignupWizard.State()
    ) {
      SignupWizard()
    }
    let handle = SessionHandle(store: store)
    entries[id] = Entry(handle: handle, lastUsed: .now)
    return handle
  }

  /// The session's store, rehydrated from the journal when it is not in memory. Returns whether it
  /// was rehydrated by this call. Throws `unknownSession` for a session the journal does not hold.
  func handle(_ id: SessionID) async throws -> (SessionHandle, rehydrated: Bool) {
    if var entry = entries[id] {
      entry.lastUsed = .now
      entries[id] = entry
      return (entry.handle, false)
    }
    if let pending = opening[id] {
      return (try await pending.value, false)
    }
    let journal = self.journal
    let task = Task<SessionHandle, any Error> {
      guard try journal.session(id) != nil else {
        throw StorageError(code: .unknownSession, message: "No session has that identifier.")
      }
      // `open` replays the journal from the nearest snapshot when the session exists.
      let store = try RecordingStore.open(
        session: id, journal: journal, initialState: SignupWizard.State()
      ) {
        SignupWizard()
      }
      return SessionHandle(store: store)
    }
    opening[id] = task
    defer { opening[id] = nil }
    let handle = try await task.value
    entries[id] = Entry(handle: handle, lastUsed: .now)
    rehydrations += 1
    return (handle, true)
  }

  /// Drops a session's store, so the next request rehydrates it from the journal (after another
  /// writer appended to it, the store in memory is behind).
  func forget(_ id: SessionID) {
    entries[id] = nil
  }

  /// Drops the sessions idle for longer than `idleTimeout`; returns how many.
  @discardableResult
  public func evictIdle(now: ContinuousClock.Instant = .now) -> Int {
    let deadline = now - idleTimeout
    let idle = entries.filter {
      $0.value.lastUsed < deadline && $0.value.handle.isIdle(since: deadline)
    }
    .map(\.key)
    for id in idle { entries[id] = nil }
    evictions += idle.count
    return idle.count
  }

  /// Drops every session (at shutdown, once no request is in flight).
  public func removeAll() {
    entries.removeAll()
  }
}
