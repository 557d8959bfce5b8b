/// How hard a journal works to keep a committed append across failures.
///
/// Every mode keeps every committed append across a crash of the process: the database is in
/// WAL mode and a commit reaches the operating system before `append` returns. The modes
/// differ in what survives a power loss or a crash of the operating system, and in speed.
public enum Durability: Sendable, Hashable {
  /// Each append is its own transaction, flushed to the disk before `append` returns
  /// (`synchronous = FULL`). Survives power loss. The default.
  case full
  /// Each append is its own transaction, written to the WAL but flushed only at checkpoints
  /// (`synchronous = NORMAL`). Survives a crash of the process; a power loss may lose the last
  /// appends (never tear one). Faster, with fewer disk flushes.
  case normal
  /// Appends from many threads are coalesced into one transaction of at most `maxBatch`
  /// entries, flushed once (`synchronous = FULL`). Each `append` returns only once its batch
  /// is on the disk, so it survives power loss like ``full``. One thread appending alone sees
  /// no gain; many concurrent writers see up to `maxBatch` appends per disk flush.
  case groupCommit(maxBatch: Int = 512)
}
