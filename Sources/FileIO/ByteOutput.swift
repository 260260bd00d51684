/// Where an encoder's bytes go, whole or not at all: a file (`AtomicFile.Stream`) or memory
/// (`ByteBuffer`).
///
/// Bytes arrive in pieces through `write(_:)`; `commit()` makes them the result (a file appears
/// under its name only then); `abort()` throws them away (a file's temporary is removed).
public protocol ByteOutput: AnyObject {
  /// Appends `bytes`.
  func write(_ bytes: [UInt8]) throws(FileError)
  /// Replaces bytes already written, from `offset` (bytes from the start) on: a header whose
  /// counts are known only at the end (an APNG's frame count), written before the rest streams.
  func overwrite(_ bytes: [UInt8], at offset: Int) throws(FileError)
  /// Ends the output successfully: the bytes become the file (or the buffer's result).
  func commit() throws(FileError)
  /// Ends the output unsuccessfully: nothing is left behind.
  func abort()
}

/// Bytes collected in memory, for encoders that write to a `ByteOutput`.
///
/// Read `bytes` once the writing has finished.
public final class ByteBuffer: ByteOutput {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []

  /// An empty buffer.
  public init() {}

  /// Appends `bytes`.
  public func write(_ bytes: [UInt8]) throws(FileError) { self.bytes.append(contentsOf: bytes) }

  /// Replaces `bytes.count` bytes from `offset` (which must have been written).
  public func overwrite(_ bytes: [UInt8], at offset: Int) throws(FileError) {
    precondition(offset >= 0 && offset + bytes.count <= self.bytes.count, "overwrite past the end")
    self.bytes.replaceSubrange(offset..<offset + bytes.count, with: bytes)
  }

  /// Does nothing: the bytes are already in `bytes`.
  public func commit() throws(FileError) {}

  /// Empties the buffer.
  public func abort() { bytes = [] }
}
