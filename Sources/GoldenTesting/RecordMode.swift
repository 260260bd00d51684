/// When golden files are written instead of compared, from `FLIPBOOK_RECORD`.
///
/// Whatever the mode, a test that records fails, so that a person looks at the new picture
/// before it becomes the reference.
public enum RecordMode: String, Sendable, CaseIterable {
  /// Record goldens that do not exist yet; compare the others (the default).
  case missing
  /// Record missing goldens and re-record those that do not match.
  case failed
  /// Re-record every golden.
  case all
  /// Only compare; a missing golden is a failure (what CI should use).
  case never

  /// The environment variable that sets the mode.
  public static let environmentVariable = "FLIPBOOK_RECORD"

  /// The mode `FLIPBOOK_RECORD` names, `.missing` when it is unset or empty.
  ///
  /// An unknown value is a programming error in the test setup; it stops with a message naming
  /// the valid values rather than silently comparing.
  public static var current: RecordMode {
    guard let raw = Environment.value(of: environmentVariable), !raw.isEmpty else {
      return .missing
    }
    guard let mode = RecordMode(rawValue: raw) else {
      fatalError(
        "\(environmentVariable)=\(raw) is not one of \(allCases.map(\.rawValue).joined(separator: ", "))"
      )
    }
    return mode
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// The process environment, without Foundation.
enum Environment {
  static func value(of name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
