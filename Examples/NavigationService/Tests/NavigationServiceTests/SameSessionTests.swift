import Foundation
import Synchronization
import Testing

/// What the clients of one session saw.
struct Tally: Sendable {
  var acknowledged = 0
  var conflicts = 0
  var rehydrated = 0
  var backward: [String] = []
  var failures: [String] = []

  static func + (left: Tally, right: Tally) -> Tally {
    Tally(
      acknowledged: left.acknowledged + right.acknowledged,
      conflicts: left.conflicts + right.conflicts, rehydrated: left.rehydrated + right.rehydrated,
      backward: left.backward + right.backward, failures: left.failures + right.failures)
  }
}

/// How many writing clients are still at work.
final class WritersLeft: Sendable {
  private let left: Mutex<Int>
  init(_ count: Int) { left = Mutex(count) }
  var count: Int { left.withLock { $0 } }
  func done() { left.withLock { $0 -= 1 } }
}

/// Clients that each alternate a write and a read on one session, and readers that read it
/// until the writers are done, each checking that no read goes back before a sequence it
/// already saw.
func drive(
  _ service: ServiceProcess, session: String, clients: Int, readers: Int, rounds: Int
) async throws -> Tally {
  let writing = WritersLeft(clients)
  return try await withThrowingTaskGroup(of: Tally.self) { group in
    for reader in 0..<readers {
      group.addTask {
        var tally = Tally()
        var seen = 0
        while writing.count > 0 {
          let reply = try await service.request("GET", "/sessions/\(session)/stack")
          if reply.json["rehydrated"] as? Bool == true { tally.rehydrated += 1 }
          guard reply.status == 200, let sequence = reply.sequence else {
            tally.failures.append("reader \(reader): \(reply.status) \(reply.text)")
            continue
          }
          if sequence < seen {
            tally.backward.append("reader \(reader): \(sequence) after \(seen)")
          }
          seen = max(seen, sequence)
        }
        return tally
      }
    }
    for client in 0..<clients {
      group.addTask {
        defer { writing.done() }
        var tally = Tally()
        var seen = 0
        func observe(_ reply: ServiceProcess.Reply, _ what: String) {
          if reply.json["rehydrated"] as? Bool == true { tally.rehydrated += 1 }
          guard reply.status == 200, let sequence = reply.sequence else {
            if reply.status == 409 { tally.conflicts += 1 } else {
              tally.failures.append("client \(client) \(what): \(reply.status) \(reply.text)")
            }
            return
          }
          if sequence < seen {
            tally.backward.append("client \(client) \(what): \(sequence) after \(seen)")
          }
          seen = max(seen, sequence)
        }
        for round in 0..<rounds {
          let action = (client + round) % 2 == 0 ? Actions.start : Actions.cancel
          let write = try await service.request(
            "POST", "/sessions/\(session)/actions", body: action)
          if write.status == 200 { tally.acknowledged += 1 }
          observe(write, "write \(round)")
          observe(try await service.request("GET", "/sessions/\(session)/stack"), "read \(round)")
        }
        return tally
      }
    }
    var total = Tally()
    for try await tally in group { total = total + tally }
    return total
  }
}

@Suite("one session served in order", .serialized)
struct SameSessionTests {
  @Test("concurrent reads and writes on one session: no 409, no rehydration, no backward read")
  func readsAndWritesInOrder() async throws {
    let folder = try TemporaryFolder()
    let service = try ServiceProcess(database: folder.database)
    let created = try await service.request("POST", "/sessions", body: #"{"id": "busy"}"#)
    #expect(created.status == 201, "\(created.text)")
    let tally = try await drive(service, session: "busy", clients: 12, readers: 12, rounds: 40)
    #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
    // Only this process writes to the journal: a 409 would be spurious.
    #expect(tally.conflicts == 0)
    #expect(tally.rehydrated == 0)
    #expect(tally.backward.isEmpty, "\(tally.backward.prefix(5))")
    let final = try await service.request("GET", "/sessions/busy/stack")
    #expect(final.sequence == tally.acknowledged)
    let ready = try await service.request("GET", "/health/ready")
    #expect(ready.json["rehydrations"] as? Int == 0, "\(ready.text)")
    #expect(service.terminate() == 0)
  }
}
