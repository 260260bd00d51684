import FileIO
import Glibc
import Parallelism
import SceneFiles

/// The records of a batch's animations as they finish, kept on disk while the batch runs so
/// that a batch stopped before it writes its manifest (an interrupt, a CI job's time limit, a
/// kill) loses no finished work: the next run over the same OUTDIR reads them back as it reads
/// an earlier manifest, and reuses each output still on disk as recorded.
///
/// The journal is `OUTDIR/.MANIFEST.journal` (`.manifest.json.journal`, or a shard's
/// `.manifest.1-of-2.json.journal`): one line a rendered animation, each line a manifest of one
/// entry, appended as the animation finishes. A line cut short by a kill does not read back and
/// is skipped; the lines after it still do. The file is removed once the manifest is written,
/// and only grows across runs that are stopped. Animations that failed, or reused every output,
/// are not written (an earlier record holds them, or they are tried again).
///
/// Writing it is best effort: a journal that cannot be made or written (a full disk) costs only
/// the resumption, never the batch.
public final class BatchJournal: Sendable {
  /// The journal's path.
  public let path: String
  /// The Flipbook version and formats each line's manifest names.
  let version: String, formats: [String]
  /// The open file (-1 when it could not be opened), appended to under the lock.
  private let file: Locked<Int32>

  /// The journal kept beside the manifest `manifestName` in `outputFolder`.
  public static func path(in outputFolder: String, manifestName: String) -> String {
    outputFolder + "/." + manifestName + ".journal"
  }

  /// Opens (or makes) the journal at `path` for appending records of a batch of `formats` by
  /// Flipbook `version`. A journal whose last line was cut short gets a line end first, so the
  /// next record starts a line of its own.
  public init(path: String, version: String, formats: [String]) {
    (self.path, self.version, self.formats) = (path, version, formats)
    // Only a regular file of its own: a symbolic link planted there (the batch's records were
    // appended to the file it named) is not followed, and a FIFO (the open blocked, before
    // anything rendered) not waited on.
    var fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
    var info = stat()
    if fd >= 0, fstat(fd, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG {
      close(fd)
      fd = -1
    }
    file = Locked(fd)
    guard fd >= 0 else { return }
    if info.st_size > 0 {
      var last: UInt8 = 0
      let reader = Glibc.open(path, O_RDONLY | O_CLOEXEC)
      if reader >= 0 {
        if pread(reader, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A {
          Self.write([0x0A], to: fd)
        }
        close(reader)
      }
    }
  }

  deinit {
    file.withLock { fd in
      if fd >= 0 { close(fd) }
      fd = -1
    }
  }

  /// Appends `entry` as one line (from any thread).
  public func record(_ entry: Manifest.Entry) {
    let manifest = Manifest(
      flipbookVersion: version, formats: formats, shard: nil, animations: [entry])
    // `serialized()` puts a line end only between members and items (a string's own are
    // escaped): with them made spaces the record is one line.
    var line = Array(manifest.json.serialized().dropLast().utf8)
    for i in line.indices where line[i] == 0x0A { line[i] = 0x20 }
    line.append(0x0A)
    file.withLock { fd in
      if fd >= 0 { Self.write(line, to: fd) }
    }
  }

  /// Writes all of `bytes` to `fd`, giving up at the first error.
  private static func write(_ bytes: [UInt8], to fd: Int32) {
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
        if n > 0 {
          done += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }

  /// The records the journal at `path` holds, the latest of each name, or none when it is
  /// missing, unreadable or over `AtomicFile.maximumReadSize`. Each line is read as a manifest
  /// is (`Manifest(json:)`), so a record is trusted only in the shape a batch writes; a line
  /// that does not read (cut short, or edited) is skipped.
  public static func entries(at path: String) -> [Manifest.Entry] {
    // A symbolic link is no journal a batch wrote (`init` never follows one).
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      let bytes = try? AtomicFile.read(path)
    else { return [] }
    var latest: [String: Manifest.Entry] = [:]
    var order: [String] = []
    for line in bytes.split(separator: 0x0A) {
      guard let json = try? JSONParser.parse(Array(line)),
        let manifest = try? Manifest(json: json)
      else { continue }
      for entry in manifest.animations {
        if latest[entry.name] == nil { order.append(entry.name) }
        latest[entry.name] = entry
      }
    }
    return order.map { latest[$0]! }
  }

  /// Removes the journal at `path` (once the manifest holding its records is written): a
  /// regular file or a symbolic link (itself, not what it names); anything else stays.
  public static func remove(at path: String) {
    var info = stat()
    guard lstat(path, &info) == 0,
      (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFLNK
    else { return }
    unlink(path)
  }
}
