import Foundation
import StackNavigation

extension EntryDraws {
  /// The record as a journal stores it: the sorted-key JSON of ``EntryDraws/json()``, written by
  /// the journal's own encoder (the bytes `JSONEncoder` writes, at a fraction of its cost: an
  /// entry that draws pays for the bytes it drew).
  package func journalText() -> String {
    let data = (try? SortedJSONEncoder().encode(self)) ?? json()
    return String(decoding: data, as: UTF8.self)
  }
}
