import Foundation

/// A container whose values have no key, one after another: an array's or a single value's.
protocol PositionalJSONContainer {
  var sink: JSONSink { get }
  /// Readies the position of the next value; throws where it cannot be written.
  mutating func next() throws
}

extension PositionalJSONContainer {
  mutating func encodeNil() throws {
    try next()
    sink.writeNull()
  }
  mutating func encode(_ value: Bool) throws {
    try next()
    sink.writeBool(value)
  }
  mutating func encode(_ value: String) throws {
    try next()
    sink.writer.string(value)
  }
  mutating func encode(_ value: Double) throws {
    try next()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Float) throws {
    try next()
    try sink.writeNumber(value)
  }
  mutating func encode(_ value: Int) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int8) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int16) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int32) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: Int64) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt8) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt16) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt32) throws {
    try next()
    sink.writer.integer(value)
  }
  mutating func encode(_ value: UInt64) throws {
    try next()
    sink.writer.integer(value)
  }
}
