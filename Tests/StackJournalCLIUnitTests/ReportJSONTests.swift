import Foundation
@testable import StackJournalCore
@testable import StackStorage
import Testing

@testable import StackJournalCLI

/// The reports `--json` prints are `Encodable`; absent values are written as `null`.
struct ReportJSONTests {
  struct Report: Encodable {
    var name: String
    @NullWhenAbsent var missing: Int?
    @NullWhenAbsent var present: Int?
    var omitted: Int?
  }

  @Test func absentValuesAreNullAndKeysSorted() throws {
    let text = try ReportJSON.text(Report(name: "a/b", missing: nil, present: 3, omitted: nil))
    #expect(text == "{\n  \"missing\" : null,\n  \"name\" : \"a/b\",\n  \"present\" : 3\n}")
  }

  @Test func aStatsReportNamesEveryMember() throws {
    let stats = StorageStatistics(
      fileBytes: 8192, walBytes: nil, pageSize: 4096, freePages: 0,
      objects: [.init(name: "journal", kind: "table", rows: 2, bytes: nil)],
      sessions: [],
      activity: [.init(start: Date(timeIntervalSince1970: 60), seconds: 60, entries: 20)])
    let json = try JSONSerialization.jsonObject(
      with: Data(try ReportJSON.text(StatsReport(stats, path: "j.sqlite")).utf8))
    let object = try #require(json as? [String: Any])
    #expect(object["walBytes"] is NSNull)
    let table = try #require((object["tables"] as? [[String: Any]])?.first)
    #expect(table["bytes"] is NSNull)
    #expect(table["rows"] as? Int == 2)
    let activity = try #require((object["activity"] as? [[String: Any]])?.first)
    #expect(activity["perSecond"] as? Double == 0.333)
    #expect(activity["start"] as? String == "1970-01-01T00:01:00.000Z")
  }
}
