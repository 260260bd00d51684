import FileIO

/// The content hash of an animation's outputs: SHA-256 over the Flipbook version, the render
/// options, the input file's bytes, and each file it reads (its path relative to the batch's
/// common folder, then its bytes). Equal hashes mean equal outputs: rendering is deterministic.
/// Paths enter relative, so the hash is the same on every machine and in every folder.
public enum ContentHash {
  /// `sha256:` and 64 hexadecimal digits, or `nil` when a dependency cannot be read (then the
  /// animation must be rendered again).
  ///
  /// - Parameters:
  ///   - dependencies: (relative path, absolute path) of each file read besides the input.
  public static func compute(
    version: String, options: String, input: [UInt8],
    dependencies: [(relative: String, absolute: String)]
  ) -> String? {
    var hash = SHA256()
    hash.update(field: "flipbook \(version)")
    hash.update(field: options)
    hash.update(field: "input \(input.count)")
    hash.update(input)
    for dependency in dependencies {
      guard let bytes = try? AtomicFile.read(dependency.absolute) else { return nil }
      hash.update(field: "file \(dependency.relative) \(bytes.count)")
      hash.update(bytes)
    }
    return "sha256:" + hash.finalizeHex()
  }
}
