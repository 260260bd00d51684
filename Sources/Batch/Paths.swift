import FileIO
import SceneFiles
import Glibc

/// Lexical path arithmetic for the batch: absolute paths without `.`, `..` or repeated slashes,
/// and paths relative to a folder, so that names do not depend on where a run starts.
public enum Paths {
  /// The working folder (`/` when it cannot be read).
  public static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The working folder's path shown with its other bytes as `\xFF` when it is not UTF-8
  /// (`workingDirectory()` would hold U+FFFD there, naming another folder), else `nil`.
  public static func workingDirectoryNotUTF8() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(validating: bytes, as: UTF8.self) == nil ? MessageText.bytes(bytes) : nil
  }

  /// `path` made absolute against `base` and normalized lexically: `a/./b/../c` is `a/c`.
  public static func absolute(_ path: String, base: String) -> String {
    let joined = path.hasPrefix("/") ? path : base + "/" + path
    // By bytes: a list of a million lines of `./././…` compared each part as characters, 160 µs
    // a line. Parts split at `/` are whole UTF-8 sequences, so joining them again is exact.
    var parts: [Substring.UTF8View] = []
    for part in joined.utf8.split(separator: 0x2F, omittingEmptySubsequences: true) {
      if part.count == 1 && part.first == 0x2E { continue }  // "."
      if part.count == 2 && part.allSatisfy({ $0 == 0x2E }) {  // ".."
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(joined.utf8.count + 1)
    for part in parts {
      bytes.append(0x2F)
      bytes.append(contentsOf: part)
    }
    if bytes.isEmpty { bytes.append(0x2F) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Why `path` is not a plain relative path inside a folder, or `nil` when it is: a batch's
  /// output and frame-sheet files are such paths, and a manifest read back (from a cache or a
  /// shard) is trusted with no other. Refused: an empty path, a leading `/` or a `..` part (a
  /// file outside the folder), a control character or a backslash (not a name the batch
  /// writes), and a colon before the first slash (the gallery's links would read it as a URL
  /// scheme: `javascript:…`).
  public static func notPlainRelative(_ path: String) -> String? {
    if path.isEmpty { return "an empty path" }
    if path.hasPrefix("/") || path.split(separator: "/").contains("..") {
      return "a file outside the output folder"
    }
    if path.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    {
      return "a control character in a file name"
    }
    if path.contains("\\") { return "a backslash in a file name" }
    if path.prefix(while: { $0 != "/" }).contains(":") {
      return "a colon before the first slash (a link would read it as a URL scheme)"
    }
    return nil
  }

  /// The folder part of an absolute path (`/a/b` for `/a/b/c.json`; `/` for `/c.json`).
  public static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let folder = String(path[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  /// The longest folder that holds every one of `folders` (absolute, normalized).
  public static func commonFolder(_ folders: [String]) -> String {
    guard var common = folders.first?.split(separator: "/") else { return "/" }
    for folder in folders.dropFirst() {
      let parts = folder.split(separator: "/")
      var n = 0
      while n < common.count && n < parts.count && common[n] == parts[n] { n += 1 }
      common = Array(common.prefix(n))
    }
    return "/" + common.joined(separator: "/")
  }

  /// `path` relative to `folder` (both absolute, normalized): `b/c.png`, or `../x/c.png` when
  /// `path` lies outside `folder`.
  public static func relative(_ path: String, to folder: String) -> String {
    let p = path.split(separator: "/"), f = folder.split(separator: "/")
    var n = 0
    while n < p.count && n < f.count && p[n] == f[n] { n += 1 }
    let up = Array(repeating: "..", count: f.count - n)
    return (up + p[n...].map(String.init)).joined(separator: "/")
  }

  /// `path` without its extension (`a/b` for `a/b.json`; the dot of a hidden name stays).
  public static func removingExtension(_ path: String) -> String {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
    return String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
  }

  /// Whether `path` is an existing folder (following symbolic links).
  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Whether anything is at `path` (following symbolic links: a link to nothing is not).
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
  }

  /// The size in bytes of the file at `path`, or `nil` when there is none.
  static func fileSize(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  /// Makes `folder` and the folders above it that are missing (`mkdir -p`).
  public static func makeFolders(_ folder: String) throws(FileError) {
    if isFolder(folder) || folder == "/" || folder.isEmpty { return }
    try makeFolders(Paths.folder(of: folder))
    try AtomicFile.makeFolder(folder)
  }

  /// Whether `path` is a symbolic link.
  static func isLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  /// The entries of `folder` (not `.` and `..`; hidden names included) whose names are UTF-8,
  /// sorted by their bytes (`entryBytes(of:)` has the others too).
  static func entries(of folder: String) -> [String] {
    entryBytes(of: folder).compactMap { String(validating: $0, as: UTF8.self) }
  }

  /// The names of the entries of `folder` (not `.` and `..`; hidden names included) as the
  /// bytes the system gives, sorted: a name that is not UTF-8 made into a `String` would hold
  /// U+FFFD and name no file.
  static func entryBytes(of folder: String) -> [[UInt8]] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var out: [[UInt8]] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      if name != [0x2E] && name != [0x2E, 0x2E] { out.append(name) }
    }
    return out.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Whether the entry `name` (its bytes) of `folder` is a folder, following a symbolic link.
  static func isFolder(_ folder: String, entry name: [UInt8]) -> Bool {
    var path = Array(folder.utf8)
    if path.last != 0x2F { path.append(0x2F) }
    path += name + [0]
    var info = stat()
    return path.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
    } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
