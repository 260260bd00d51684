import CZlib
import SceneFiles

/// dotLottie archives (`.lottie`): a zip holding `manifest.json`, `animations/<id>.json` and
/// `images/...` (version 2: `a/<id>.json` and `i/...`). Read with a small zip reader over
/// zlib's raw inflate, within limits, so a hostile archive is refused rather than exhausting
/// memory.
enum DotLottie {
  /// The most entries an archive may have: 10,000.
  static let maximumEntries = 10_000
  /// The most bytes all entries may inflate to together: 256 MiB.
  static let maximumInflatedBytes = 256 << 20
  /// The most bytes `manifest.json` may inflate to: 1 MiB, checked on the size the archive
  /// states, before it is inflated. A manifest names animations and their playback settings;
  /// one of 260 MB (600 KB deflated) took 6 GB and 28 s to parse for one frame. A larger one is
  /// not read: the first animation by name is drawn, with a warning.
  static let maximumManifestBytes = 1 << 20

  /// Why an archive cannot be read.
  struct ArchiveError: Error {
    var message: String
  }

  /// What an archive holds that Flipbook reads: the first animation's JSON, and the images by
  /// their path in the archive (`images/img_0.png`).
  struct Contents {
    var animation: [UInt8]
    /// The animation's path in the archive (`animations/heart.json`), for messages.
    var animationName: String
    var images: [String: [UInt8]]
    /// Why the manifest did not choose the animation, when there is a manifest (it is not
    /// JSON, names none, or names one the archive does not hold): said as a warning.
    var manifestProblem: String? = nil
    /// The manifest's playback settings for the animation that are not applied
    /// (`animations[1].speed`): said as a warning.
    var playbackIgnored: [String] = []
  }

  /// Whether the bytes are a zip archive: starting as one does (a local file header, or the
  /// end record of an empty archive, refused as having no animation rather than as invalid
  /// JSON), or, not starting as JSON does, ending with a zip's end record within its last
  /// 64 KiB (an archive with data before its first entry was said to be invalid JSON).
  static func isArchive(_ bytes: [UInt8]) -> Bool {
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    {
      return true
    }
    guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
      first != UInt8(ascii: "{"), first != UInt8(ascii: "["), first != 0xEF, bytes.count >= 22
    else { return false }
    let lowest = Swift.max(0, bytes.count - 22 - 65_535)
    for i in stride(from: bytes.count - 22, through: lowest, by: -1)
    where bytes[i] == 0x50 && bytes[i + 1] == 0x4B && bytes[i + 2] == 0x05 && bytes[i + 3] == 0x06 {
      return true
    }
    return false
  }

  /// An entry's name as the archive is read: a leading `/` or `./` (some zip tools write
  /// them) dropped, so `./animations/a.json` is the animation `a`.
  static func entryName(_ name: String) -> String {
    var name = Substring(name)
    while name.hasPrefix("/") || name.hasPrefix("./") {
      name = name.hasPrefix("/") ? name.dropFirst() : name.dropFirst(2)
    }
    return String(name)
  }

  /// One file in the archive, from the central directory.
  struct Entry {
    var name: String
    var method: Int
    var compressedSize: Int
    var size: Int
    var crc: UInt32
    var localHeader: Int
    /// The general-purpose bit flags (bit 0: encrypted).
    var flags: UInt16 = 0
  }

  /// The archive's first animation (the manifest's first, else the first `animations/*.json`)
  /// and its images.
  static func read(_ bytes: [UInt8]) throws(ArchiveError) -> Contents {
    let entries = try directory(bytes)
    try checkDisjoint(entries, in: bytes)
    var budget = maximumInflatedBytes
    var byName: [String: Entry] = [:]
    for e in entries {
      // Readers disagree on which of two entries of one name is the file (the first, the
      // last): refused rather than chosen.
      guard byName[e.name] == nil else {
        throw ArchiveError(message: "a damaged zip archive (two entries named \"\(e.name)\")")
      }
      byName[e.name] = e
    }
    // Both spellings of one animation (`animations/b.json`, version 1, and `a/b.json`, version
    // 2) are one animation that readers pick differently (`animations/` was drawn, where a
    // version 2 player reads `a/`): refused, as two spellings of one image are.
    for e in entries where e.name.hasPrefix("a/") && e.name.hasSuffix(".json") {
      guard byName["animations/" + e.name.dropFirst(2)] == nil else {
        throw ArchiveError(
          message:
            "an archive with two entries for the animation "
            + "\"\(MessageText.value(String(e.name.dropFirst(2).dropLast(5))))\" (animations/ and "
            + "a/), which players pick differently")
      }
    }
    var animationName: String? = nil
    var manifestProblem: String? = nil
    var playbackIgnored: [String] = []
    if let manifest = byName["manifest.json"], manifest.size > maximumManifestBytes {
      manifestProblem =
        "it states it \(manifest.method == 0 ? "holds" : "inflates to") \(manifest.size) "
        + "bytes, over the "
        + "\(maximumManifestBytes >> 20) MiB a "
        + "manifest may have"
    } else if let manifest = byName["manifest.json"] {
      let data = try contents(of: manifest, in: bytes, budget: &budget)
      switch manifestAnimation(data) {
      case .success(let chosen):
        animationName =
          ["animations/\(chosen.id).json", "a/\(chosen.id).json"].first { byName[$0] != nil }
        if animationName == nil {
          manifestProblem =
            "\(chosen.place).id \"\(MessageText.value(chosen.id))\" names no animation the "
            + "archive holds (animations/ID.json or a/ID.json)"
        }
        playbackIgnored = chosen.playback
      case .failure(let problem): manifestProblem = problem.description
      }
    }
    if animationName == nil {
      animationName =
        entries.map(\.name).filter {
          ($0.hasPrefix("animations/") || $0.hasPrefix("a/")) && $0.hasSuffix(".json")
        }.sorted().first
    }
    guard let animationName, let entry = byName[animationName] else {
      throw ArchiveError(
        message: "a dotLottie archive without an animation (animations/*.json or a/*.json)")
    }
    // The animation is held to what a plain Lottie file may be (64 MiB), checked on the size
    // the archive states, which `contents` holds the inflating to; a size its local header
    // contradicts is said as that.
    _ = try dataRange(of: entry, in: bytes)
    try checkLocalHeader(of: entry, in: bytes)
    guard entry.size <= LottieFormat.maximumFileSize else {
      throw ArchiveError(
        message:
          "animation \"\(animationName)\" states it inflates to \(entry.size) bytes, over the "
          + "\(LottieFormat.maximumFileSize >> 20) MiB a Lottie animation may have")
    }
    let animation = try contents(of: entry, in: bytes, budget: &budget)
    var images: [String: [UInt8]] = [:]
    for e in entries where !e.name.hasSuffix("/") {
      // Images under `images/` (version 2: `i/`), known by the path a file's `u` + `p` gives.
      // Both spellings of one image (`images/a.png` and `i/a.png`) would be one entry, which
      // readers pick differently (the later one was drawn): refused as two entries of one name.
      let key = e.name.hasPrefix("i/") ? "images/" + e.name.dropFirst(2) : e.name
      guard key.hasPrefix("images/") else { continue }
      guard images[key] == nil else {
        throw ArchiveError(
          message:
            "a damaged zip archive (two entries for the image \"\(MessageText.value(key))\": "
            + "images/ and i/)")
      }
      images[key] = try contents(of: e, in: bytes, budget: &budget)
    }
    return Contents(
      animation: animation, animationName: animationName, images: images,
      manifestProblem: manifestProblem, playbackIgnored: playbackIgnored)
  }

  /// Why a manifest names no animation.
  struct ManifestProblem: Error, CustomStringConvertible {
    var description: String
  }

  /// The animation a manifest opens with, as dotLottie players choose it: the one its
  /// `activeAnimationId` names (version 1) or its `initial.animation` (version 2), else the
  /// first of `animations`; its id, its place, and the places of the playback settings it
  /// states that Flipbook does not apply (`speed` other than 1, `direction` other than 1,
  /// `playMode` other than `normal`, a theme, a state machine: a player's, not the
  /// animation's). Or what is wrong with the manifest.
  static func manifestAnimation(
    _ data: [UInt8]
  ) -> Result<(id: String, place: String, playback: [String]), ManifestProblem> {
    // The parser's reason and place: a manifest nested past its depth limit is valid JSON, and
    // was said not to be.
    let json: JSONValue
    do {
      json = try JSONParser.parse(data)
    } catch {
      return .failure(
        ManifestProblem(
          description: "its JSON cannot be read: \(error.line):\(error.column): \(error.message)"))
    }
    guard case .object(let top) = json else {
      return .failure(
        ManifestProblem(description: "it is \(json.kindDescription), not an object"))
    }
    guard let animations = top.first(where: { $0.key == "animations" })?.value else {
      return .failure(ManifestProblem(description: "it has no animations list"))
    }
    guard case .array(let list) = animations else {
      return .failure(
        ManifestProblem(
          description: "animations is \(animations.kindDescription), not a list"))
    }
    guard !list.isEmpty else {
      return .failure(ManifestProblem(description: "its animations list is empty"))
    }
    func id(_ item: JSONValue) -> String? {
      guard case .object(let fields) = item,
        case .string(let id)? = fields.first(where: { $0.key == "id" })?.value
      else { return nil }
      return id
    }
    // The animation the manifest opens with, when it names one of its list; one it names
    // that is not there (or names by a number) is said, and the first listed drawn.
    var chosen: (key: String, value: JSONValue)? = nil
    var initialAnimation: JSONValue? = nil
    // `initial` of another kind (`"initial": "b"`) names nothing a player reads: said, and the
    // first animation drawn (it was ignored without a word).
    var initialProblem: String? = nil
    switch top.first(where: { $0.key == "initial" })?.value {
    case .object(let initial)?:
      initialAnimation = initial.first(where: { $0.key == "animation" })?.value
    case nil, .null?: break
    case let other?:
      initialProblem = "initial is \(other.kindDescription), not an object (initial.animation)"
    }
    // Version 2 names it in `initial.animation`, version 1 in `activeAnimationId`: each
    // version's own field first (a stray v1 field in a v2 manifest drew the wrong one).
    var version2 = false
    if case .string(let v)? = top.first(where: { $0.key == "version" })?.value {
      version2 = v.hasPrefix("2")
    }
    let active = top.first(where: { $0.key == "activeAnimationId" })?.value
    if version2, let initialAnimation {
      chosen = ("initial.animation", initialAnimation)
    } else if let active {
      chosen = ("activeAnimationId", active)
    } else if let initialAnimation {
      chosen = ("initial.animation", initialAnimation)
    }
    var k = 0
    var unknown: String? = nil
    if let chosen {
      if case .string(let name) = chosen.value,
        let found = list.firstIndex(where: { id($0) == name })
      {
        k = found
      } else {
        if case .string(let name) = chosen.value {
          unknown =
            "\(chosen.key) \"\(MessageText.value(name))\" names none of its animations"
        } else {
          unknown = "\(chosen.key) is \(chosen.value.kindDescription), not an animation's id"
        }
      }
    }
    let place = "animations[\(k)]"
    guard let found = id(list[k]) else {
      // An entry that is no object (`"animations": ["b"]`) has no `id` to be of a kind.
      guard case .object = list[k] else {
        return .failure(
          ManifestProblem(
            description: "\(place) is \(list[k].kindDescription), not an object with an id"))
      }
      return .failure(ManifestProblem(description: "\(place).id is not a string"))
    }
    guard !found.contains("/"), !found.contains("\u{0}") else {
      return .failure(
        ManifestProblem(description: "\(place).id \"\(found)\" is not a file name"))
    }
    var playback: [String] = []
    if case .object(let fields) = list[k] {
      func value(_ key: String) -> JSONValue? { fields.first { $0.key == key }?.value }
      if let speed = value("speed"), speed != .number(1) { playback.append("\(place).speed") }
      if let direction = value("direction"), direction != .number(1) {
        playback.append("\(place).direction")
      }
      if let mode = value("playMode"), mode != .string("normal") {
        playback.append("\(place).playMode")
      }
      // A theme a player applies when it opens the animation (version 2's `initialTheme`,
      // version 1's `defaultTheme`) changes what is drawn: said, and the file drawn as it is.
      for key in ["initialTheme", "defaultTheme"] {
        if let theme = value(key), theme != .string(""), theme != .null {
          playback.append("\(place).\(key)")
        }
      }
    }
    // A state machine a player starts with (version 2) decides what plays and when.
    if case .object(let initial)? = top.first(where: { $0.key == "initial" })?.value,
      let machine = initial.first(where: { $0.key == "stateMachine" })?.value,
      machine != .string(""), machine != .null
    {
      playback.append("initial.stateMachine")
    }
    if let unknown { playback.insert(unknown, at: 0) }
    if let initialProblem { playback.insert(initialProblem, at: 0) }
    return .success((found, place, playback))
  }

  /// The central directory's entries.
  static func directory(_ b: [UInt8]) throws(ArchiveError) -> [Entry] {
    // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
    var end = -1
    var i = b.count - 22
    while i >= 0 && i >= b.count - 22 - 65535 {
      if u32(b, i) == 0x0605_4B50 {
        end = i
        break
      }
      i -= 1
    }
    guard end >= 0 else {
      throw ArchiveError(message: "a damaged zip archive (no central directory)")
    }
    let count = Int(u16(b, end + 10))
    let offset = Int(u32(b, end + 16))
    guard count <= maximumEntries else {
      throw ArchiveError(
        message: "a zip archive of \(count) entries exceeds the limit of \(maximumEntries)")
    }
    // Data before the first entry (a self-extracting stub, bytes prepended) moves every
    // entry by its length, which the directory's offsets do not count: found as unzip finds
    // it, where the directory ends against the end record.
    var shift = 0
    let directorySize = Int(u32(b, end + 12))
    if offset + 4 > b.count || u32(b, offset) != 0x0201_4B50, end - directorySize - offset > 0,
      end - directorySize >= 0, end - directorySize + 4 <= b.count,
      u32(b, end - directorySize) == 0x0201_4B50
    {
      shift = end - directorySize - offset
    }
    var entries: [Entry] = []
    var p = offset + shift
    for _ in 0..<count {
      guard p >= 0, p + 46 <= b.count, u32(b, p) == 0x0201_4B50 else {
        throw ArchiveError(message: "a damaged zip archive (a bad central directory entry)")
      }
      let nameLength = Int(u16(b, p + 28)), extra = Int(u16(b, p + 30)),
        comment = Int(u16(b, p + 32))
      guard p + 46 + nameLength <= b.count else {
        throw ArchiveError(message: "a damaged zip archive (a name past the end)")
      }
      let name = String(decoding: b[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
      entries.append(
        Entry(
          name: entryName(name), method: Int(u16(b, p + 10)),
          compressedSize: Int(u32(b, p + 20)), size: Int(u32(b, p + 24)), crc: u32(b, p + 16),
          localHeader: Int(u32(b, p + 42)) + shift, flags: u16(b, p + 8)))
      p += 46 + nameLength + extra + comment
    }
    return entries
  }

  /// Where an entry's data lies in the archive (after its local header), checked to lie inside
  /// it.
  static func dataRange(of e: Entry, in b: [UInt8]) throws(ArchiveError) -> Range<Int> {
    let h = e.localHeader
    guard h >= 0, h + 30 <= b.count, u32(b, h) == 0x0403_4B50 else {
      throw damaged(e, "no local header where the central directory says")
    }
    let nameLength = Int(u16(b, h + 26))
    let start = h + 30 + nameLength + Int(u16(b, h + 28))
    guard start <= b.count, e.compressedSize <= b.count - start else {
      throw damaged(e, "its data runs past the end of the archive")
    }
    return start..<(start + e.compressedSize)
  }

  /// Refuses an entry whose local header disagrees with the directory: a reader that streams
  /// the archive reads the local one, so a name, method, CRC or size of its own is another file
  /// to it (checked as the entry is read).
  static func checkLocalHeader(of e: Entry, in b: [UInt8]) throws(ArchiveError) {
    let h = e.localHeader
    let nameLength = Int(u16(b, h + 26))
    guard h + 30 + nameLength <= b.count else {
      throw damaged(e, "its local header runs past the end of the archive")
    }
    let local = entryName(String(decoding: b[(h + 30)..<(h + 30 + nameLength)], as: UTF8.self))
    // Sizes and CRC in a data descriptor after the data, or sizes in a zip64 extra field: not
    // compared.
    let described =
      u16(b, h + 6) & 0x08 != 0 || u32(b, h + 18) == 0xFFFF_FFFF || u32(b, h + 22) == 0xFFFF_FFFF
    let disagreement: String? =
      local != e.name
      ? "names \"\(local)\""
      : Int(u16(b, h + 8)) != e.method
        ? "says compression method \(u16(b, h + 8))"
        : !described
          && (u32(b, h + 14) != e.crc || Int(u32(b, h + 18)) != e.compressedSize
            || Int(u32(b, h + 22)) != e.size)
          ? "states another CRC or size" : nil
    if let disagreement {
      throw ArchiveError(
        message: "a damaged zip archive (entry \"\(e.name)\": its local header \(disagreement))")
    }
  }

  /// Refuses entries whose bytes (their local header to the end of their data) overlap: a
  /// zip's entries lie one after another, and entries sharing one stated range of 60 MB were
  /// each read from it (1,000 of them took 64 s, and 10,000 fit the entry limit).
  static func checkDisjoint(_ entries: [Entry], in b: [UInt8]) throws(ArchiveError) {
    var spans: [(start: Int, end: Int, name: String)] = []
    spans.reserveCapacity(entries.count)
    for e in entries {
      spans.append((e.localHeader, try dataRange(of: e, in: b).upperBound, e.name))
    }
    // By start, then in directory order (entries sharing a start are said in that order).
    spans = spans.enumerated().sorted {
      ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
    }
    .map(\.element)
    for (a, next) in zip(spans, spans.dropFirst()) where next.start < a.end {
      throw ArchiveError(
        message: "a damaged zip archive (entries \"\(a.name)\" and \"\(next.name)\" overlap)")
    }
  }

  /// An entry's bytes, stored or deflated, checked against its size and CRC-32; `budget` is what
  /// may still be inflated. Read in place: the data is not copied before it is inflated.
  static func contents(
    of e: Entry, in b: [UInt8], budget: inout Int
  ) throws(ArchiveError) -> [UInt8] {
    guard e.size <= budget else {
      throw ArchiveError(
        message:
          "a zip archive inflating past \(maximumInflatedBytes >> 20) MiB, the limit (at entry "
          + "\"\(e.name)\")")
    }
    budget -= e.size
    let h = e.localHeader
    guard h >= 0, h + 30 <= b.count, u32(b, h) == 0x0403_4B50 else {
      throw damaged(e, "no local header where the central directory says")
    }
    // An encrypted entry (bit 0 of the flags, in either header) read as plain is noise that
    // fails as a damaged entry, or worse: said for what it is.
    guard (e.flags | u16(b, h + 6)) & 1 == 0 else {
      throw ArchiveError(
        message: "zip entry \"\(e.name)\" is encrypted (Flipbook reads no encrypted archives)")
    }
    let range = try dataRange(of: e, in: b)
    try checkLocalHeader(of: e, in: b)
    var out: [UInt8]
    switch e.method {
    case 0:
      guard range.count == e.size else {
        throw damaged(e, "stored as \(range.count) bytes, where it states \(e.size)")
      }
      out = Array(b[range])
    case 8:
      guard let inflated = inflateRaw(b[range], size: e.size) else {
        throw damaged(e, "its deflated data does not inflate to the \(e.size) bytes it states")
      }
      out = inflated
    default:
      throw ArchiveError(
        message:
          "zip entry \"\(e.name)\" uses compression method \(e.method) (only stored and deflate are read)"
      )
    }
    let crc = out.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
    guard crc == e.crc else { throw damaged(e, "its CRC-32 does not match its data") }
    return out
  }

  /// A damaged entry, and why.
  static func damaged(_ e: Entry, _ cause: String) -> ArchiveError {
    ArchiveError(
      message: "a damaged zip archive (entry \"\(MessageText.value(e.name))\": \(cause))")
  }

  /// A raw deflate stream inflated to exactly `size` bytes, or `nil`.
  static func inflateRaw(_ data: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: Swift.max(size, 1))
    var stream = z_stream()
    guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return nil }
    defer { inflateEnd(&stream) }
    let status = data.withUnsafeBufferPointer { i in
      out.withUnsafeMutableBufferPointer { o in
        // zlib takes its input as mutable but only reads it.
        stream.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
        stream.avail_in = uInt(i.count)
        stream.next_out = o.baseAddress
        stream.avail_out = uInt(size)
        return inflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
    out.removeSubrange(size...)
    return out
  }

  static func u16(_ b: [UInt8], _ i: Int) -> UInt16 {
    guard i >= 0, i + 2 <= b.count else { return 0 }
    return UInt16(b[i]) | UInt16(b[i + 1]) << 8
  }

  static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    guard i >= 0, i + 4 <= b.count else { return 0 }
    return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
  }
}
