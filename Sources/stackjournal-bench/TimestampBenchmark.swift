import Foundation
import StackStorage

extension Benchmark {
  /// Formats and parses `--count` times with ``Timestamp`` and with Foundation's two ISO 8601
  /// formatters (`Date.ISO8601FormatStyle` and `ISO8601DateFormatter`, both with fractional
  /// seconds), and prints the time per call of each and its ratio to ours, measured in the same
  /// run; then where Foundation's results differ from ours. Each of the six measured loops is a
  /// function of its own (``TimingLoops``), so callgrind counts each one's instructions:
  /// `benchmarks/timestamp-instructions.sh` runs the section under callgrind, counting inside
  /// one loop at a time, and prints instructions per call.
  static let timestamps = Benchmark(
    name: "timestamps",
    summary: "formats and parses --count times with Timestamp and with Foundation's ISO 8601"
  ) { options in
    let dates = TimingLoops.dates(options.count)
    let texts = dates.map(Timestamp.string(from:))
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]

    Report.title("timestamps: \(options.count) times, years 1970–2099, formatted and parsed")
    var ours = (format: 0.0, parse: 0.0)
    for (label, kind) in [
      ("Timestamp", TimingLoops.Kind.timestamp),
      ("Date.ISO8601FormatStyle", .formatStyle),
      ("ISO8601DateFormatter", .dateFormatter),
    ] {
      // One call on the first hundred first, so a formatter's set-up is not timed.
      let warmUp = min(100, dates.count)
      _ = TimingLoops.format(
        kind, Array(dates.prefix(warmUp)), style: style, formatter: formatter)
      let formatSeconds = await Report.seconds {
        _ = TimingLoops.format(kind, dates, style: style, formatter: formatter)
      }
      _ = TimingLoops.parse(
        kind, Array(texts.prefix(warmUp)), style: style, formatter: formatter)
      let parseSeconds = await Report.seconds {
        _ = TimingLoops.parse(kind, texts, style: style, formatter: formatter)
      }
      if kind == .timestamp { ours = (formatSeconds, parseSeconds) }
      for (operation, seconds, baseline) in [
        ("format", formatSeconds, ours.format), ("parse", parseSeconds, ours.parse),
      ] {
        let nanoseconds = seconds / Double(dates.count) * 1e9
        print(
          "  \((label + " " + operation).padding(toLength: 34, withPad: " ", startingAt: 0))"
            + String(format: "%9.1f ns per call  %6.1f× Timestamp's", nanoseconds,
              seconds / baseline))
      }
    }

    Report.title("timestamps: where Foundation's results differ from Timestamp's")
    for (label, write, read) in [
      (
        "Date.ISO8601FormatStyle", { (date: Date) in style.format(date) },
        { (text: String) in try? style.parse(text) }
      ),
      (
        "ISO8601DateFormatter", { (date: Date) in formatter.string(from: date) },
        { (text: String) in formatter.date(from: text) }
      ),
    ] as [(String, (Date) -> String, (String) -> Date?)] {
      let written = zip(dates, texts).filter { write($0.0) != $0.1 }
      let misread = zip(dates, texts).filter { read($0.1) != $0.0 }
      print("  \(label): of \(dates.count) times, Timestamp's text differs for \(written.count)")
      if let (date, text) = written.first {
        print("    e.g. \(text) is written \(write(date))")
      }
      print(
        "  \(label): of \(dates.count) texts, a date other than Timestamp's for \(misread.count)")
      if let (date, text) = misread.first {
        let difference = read(text).map { $0.timeIntervalSince(date) * 1e9 }
        print(
          "    e.g. \(text) is read "
            + (difference.map { String(format: "%+.0f ns", $0) } ?? "as nil")
            + " from Timestamp's date")
      }
    }
    let edges = [
      Timestamp.earliest, Timestamp.latest,
      Timestamp.earliest.addingTimeInterval(-0.001), Timestamp.latest.addingTimeInterval(0.001),
      Date(timeIntervalSince1970: 1_764_338_587.1235),
    ]
    for date in edges {
      print(
        "  \(String(date.timeIntervalSince1970 * 1000)) ms since 1970: "
          + "Timestamp \(Timestamp.string(from: date)), FormatStyle \(style.format(date)), "
          + "DateFormatter \(formatter.string(from: date))")
    }
    for text in [
      "2026-11-28T14:03:07.123Z", "2026-11-28T14:03:07Z", "2026-11-28T14:03:07.1Z",
      "2026-11-28T14:03:07.123456Z", "2026-11-28T15:03:07.123+01:00", "2026-11-28t14:03:07.123z",
      "2026-02-29T00:00:00.000Z", "2026-11-31T00:00:00.000Z", "2026-11-28T23:59:60.000Z",
      "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "+10000-01-01T00:00:00.000Z",
    ] {
      func shown(_ date: Date?) -> String {
        date.map { Timestamp.string(from: $0) } ?? "nil"
      }
      print(
        "  \(text.padding(toLength: 30, withPad: " ", startingAt: 0)) read as: "
          + "Timestamp \(shown(Timestamp.date(from: text))), "
          + "FormatStyle \(shown(try? style.parse(text))), "
          + "DateFormatter \(shown(formatter.date(from: text)))")
    }
  }
}

/// The measured loops of the `timestamps` section, each a function callgrind names on its own.
enum TimingLoops {
  enum Kind {
    case timestamp, formatStyle, dateFormatter
  }

  /// `count` times to the millisecond in 1970–2099, the same on every run.
  static func dates(_ count: Int) -> [Date] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    let span: UInt64 = 4_102_444_800_000  // 2100-01-01 in milliseconds since 1970
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Date(timeIntervalSince1970: Double((state >> 16) % span) / 1000)
    }
  }

  /// Formats every date with `kind`; returns the total length, so the work is not optimized
  /// away.
  static func format(
    _ kind: Kind, _ dates: [Date], style: Date.ISO8601FormatStyle, formatter: ISO8601DateFormatter
  ) -> Int {
    switch kind {
    case .timestamp: formatWithTimestamp(dates)
    case .formatStyle: formatWithFormatStyle(dates, style)
    case .dateFormatter: formatWithDateFormatter(dates, formatter)
    }
  }

  /// Parses every text with `kind`; returns how many it read.
  static func parse(
    _ kind: Kind, _ texts: [String], style: Date.ISO8601FormatStyle,
    formatter: ISO8601DateFormatter
  ) -> Int {
    switch kind {
    case .timestamp: parseWithTimestamp(texts)
    case .formatStyle: parseWithFormatStyle(texts, style)
    case .dateFormatter: parseWithDateFormatter(texts, formatter)
    }
  }

  @inline(never)
  static func formatWithTimestamp(_ dates: [Date]) -> Int {
    dates.reduce(0) { $0 + Timestamp.string(from: $1).utf8.count }
  }

  @inline(never)
  static func formatWithFormatStyle(_ dates: [Date], _ style: Date.ISO8601FormatStyle) -> Int {
    dates.reduce(0) { $0 + style.format($1).utf8.count }
  }

  @inline(never)
  static func formatWithDateFormatter(_ dates: [Date], _ formatter: ISO8601DateFormatter) -> Int {
    dates.reduce(0) { $0 + formatter.string(from: $1).utf8.count }
  }

  @inline(never)
  static func parseWithTimestamp(_ texts: [String]) -> Int {
    texts.reduce(0) { $0 + (Timestamp.date(from: $1) == nil ? 0 : 1) }
  }

  @inline(never)
  static func parseWithFormatStyle(_ texts: [String], _ style: Date.ISO8601FormatStyle) -> Int {
    texts.reduce(0) { $0 + ((try? style.parse($1)) == nil ? 0 : 1) }
  }

  @inline(never)
  static func parseWithDateFormatter(_ texts: [String], _ formatter: ISO8601DateFormatter) -> Int {
    texts.reduce(0) { $0 + (formatter.date(from: $1) == nil ? 0 : 1) }
  }
}
