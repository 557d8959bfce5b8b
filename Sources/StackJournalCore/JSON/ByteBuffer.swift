/// Bytes written a piece at a time, into memory the buffer owns: the JSON text the journal
/// writes for every action.
///
/// Not a `[UInt8]`: an array's `append`, called for every comma, key and number of a JSON text,
/// checks that its storage is not shared and copies through a generic path, several thousand
/// instructions an action in all. Here an append checks the room left and copies.
/// Noncopyable, so that no two values ever share the memory one of them frees.
struct ByteBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// How many bytes were written.
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: count + 1) }
    base[count] = byte
    count += 1
  }

  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  mutating func append(contentsOf bytes: some Sequence<UInt8>) {
    let appended: Void? = bytes.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if appended == nil {
      for byte in bytes { append(byte) }
    }
  }

  /// Appends the decimal digits of `value`, written in place from the last: a delta writes every
  /// ID of each stack it changes.
  mutating func appendDecimal(_ value: UInt) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    if count + digits > capacity { grow(toHold: count + digits) }
    var index = count + digits
    rest = value
    repeat {
      index -= 1
      base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest > 0
    count += digits
  }

  /// Calls `body` with the bytes written.
  func withUnsafeBufferPointer<Result>(
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// Calls `body` with the bytes written, to change them in place.
  mutating func withUnsafeMutableBufferPointer<Result>(
    _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    try body(UnsafeMutableBufferPointer(start: base, count: count))
  }

  /// The bytes written, as an array.
  var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }

  /// The bytes written, decoded as UTF-8.
  var text: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }

  /// Whether the bytes written are `bytes`.
  func equals(_ bytes: [UInt8]) -> Bool { withUnsafeBufferPointer { $0.elementsEqual(bytes) } }

  private mutating func grow(toHold needed: Int) {
    let grown = Swift.max(needed, capacity * 2)
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    larger.initialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity = grown
  }
}
