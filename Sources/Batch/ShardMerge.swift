import SceneFiles

/// `flipbook batch --merge OUTDIR`: the shards' manifests (`manifest.I-of-N.json`, every I of
/// one N) joined into the manifest one unsharded run writes: the same animations, sorted by
/// name, the same bytes but for the measured render times.
public enum ShardMerge {
  /// Why the shards cannot be merged.
  public struct Failure: Error, CustomStringConvertible {
    /// The message.
    public var description: String
  }

  /// The shard manifests in `folder`, as (I, N, file name).
  static func shardFiles(in folder: String) -> [(index: Int, count: Int, name: String)] {
    Paths.entries(of: folder).compactMap { name in
      guard name.hasPrefix("manifest."), name.hasSuffix(".json") else { return nil }
      let middle = name.dropFirst("manifest.".count).dropLast(".json".count)
      let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 3, parts[1] == "of", let i = Int(parts[0]), let n = Int(parts[2]),
        (1...n).contains(i)
      else { return nil }
      return (i, n, name)
    }
  }

  /// The merged manifest of `folder`'s shards.
  public static func merge(in folder: String) throws(Failure) -> Manifest {
    let files = shardFiles(in: folder)
    let counts = Set(files.map(\.count))
    guard let count = counts.first else {
      throw Failure(description: "\(folder): no shard manifests (manifest.I-of-N.json) to merge")
    }
    guard counts.count == 1 else {
      let names = files.map(\.name).joined(separator: ", ")
      throw Failure(
        description: "\(folder): shard manifests of different shard counts (\(names)); "
          + "remove the stale ones")
    }
    let present = Set(files.map(\.index))
    guard present.count == count else {
      // The first few missing ones (found within present.count + 3 steps, whatever N is).
      var missing: [Int] = []
      var index = 1
      while missing.count < 3 && index <= count {
        if !present.contains(index) { missing.append(index) }
        index += 1
      }
      var names = missing.map { Manifest.shardFileName($0, of: count) }.joined(separator: ", ")
      let more = count - present.count - missing.count
      if more > 0 { names += " and \(more) more" }
      throw Failure(description: "\(folder): missing shard manifests: \(names)")
    }
    var version: String? = nil
    var formats: [String]? = nil
    var inputs: Manifest.InputSet? = nil
    var entries: [Manifest.Entry] = []
    var seen: [String: String] = [:]  // each input's manifest
    // Every manifest named as its path in `folder` as given (`Manifest.read` names it so).
    func shown(_ name: String) -> String { folder + "/" + name }
    for file in files.sorted(by: { $0.index < $1.index }) {
      let manifest: Manifest
      do {
        manifest = try Manifest.read(folder + "/" + file.name)
      } catch {
        throw Failure(description: error.description)
      }
      if let version, version != manifest.flipbookVersion || formats != manifest.formats {
        let first = Manifest.shardFileName(1, of: count)
        func listed(_ formats: [String]?) -> String {
          MessageText.value(formats.map { $0.joined(separator: ",") } ?? "none")
        }
        let what =
          version != manifest.flipbookVersion
          ? "made by Flipbook \(MessageText.value(manifest.flipbookVersion)), \(first) by "
            + "\(MessageText.value(version)); render all shards with one build"
          : "made with formats \(listed(manifest.formats)), \(first) with \(listed(formats)); "
            + "render all shards with the same --formats"
        throw Failure(description: "\(shown(file.name)): \(what)")
      }
      // A manifest copied or renamed from another shard's would merge its animations twice
      // and leave its own shard's out: its name and what it says must agree.
      let named = "\(file.index)/\(file.count)"
      guard manifest.shard == named else {
        throw Failure(
          description: "\(shown(file.name)): "
            + (manifest.shard.map { "says it is shard \(MessageText.value($0))" }
              ?? "says no shard")
            + ", its name shard \(named); render shard \(named) again")
      }
      // Shards given other INPUTs (a checkout or a glob that differs) would merge into a
      // gallery missing animations, or holding some twice.
      if file.index > 1, manifest.inputs != inputs {
        func said(_ set: Manifest.InputSet?) -> String {
          set.map { "\(MessageText.counted($0.count, "animation")) (\($0.hash.prefix(19))…)" }
            ?? "no record of its inputs"
        }
        throw Failure(
          description: "\(shown(file.name)): made from \(said(manifest.inputs)), "
            + "\(Manifest.shardFileName(1, of: count)) from \(said(inputs)); give every shard "
            + "the same INPUTs")
      }
      version = manifest.flipbookVersion
      formats = manifest.formats
      inputs = manifest.inputs
      for entry in manifest.animations {
        if let first = seen[entry.input] {
          let place =
            first == file.name
            ? "twice in \(shown(file.name))" : "in \(shown(first)) and \(shown(file.name))"
          throw Failure(
            description: "\(MessageText.value(entry.input)) is \(place): shards of one batch "
              + "share no animation; render the shards again")
        }
        seen[entry.input] = file.name
      }
      // The files a shard vouches for must be here, at the size it states (shards rendered
      // elsewhere and only their manifests copied made a page of missing pictures, merged
      // without a word): an output that is not is left out, and its animation failed.
      for (k, var entry) in manifest.animations.enumerated() {
        var missing: [String] = []
        entry.outputs = entry.outputs.enumerated().filter { j, output in
          guard Paths.fileSize(folder + "/" + output.file) == output.bytes else {
            missing.append("animations[\(k)].outputs[\(j)].file \(MessageText.value(output.file))")
            return false
          }
          return true
        }.map(\.element)
        if let sheet = entry.frames, Paths.fileSize(folder + "/" + sheet.file) == nil {
          missing.append("animations[\(k)].frames.file \(MessageText.value(sheet.file))")
          entry.frames = nil
        }
        if !missing.isEmpty {
          let said =
            "\(shown(file.name)): \(missing.joined(separator: ", ")) not in the folder at the size "
            + "it states (copy each shard's outputs beside its manifest)"
          entry.error = entry.error.map { $0 + "; " + said } ?? said
        }
        entries.append(entry)
      }
    }
    // Every animation of the batch is in one shard: the shards' together are all of them.
    if let inputs, entries.count != inputs.count {
      throw Failure(
        description:
          "\(folder): the shards hold \(MessageText.counted(entries.count, "animation")), "
          + "their batch \(inputs.count); render the shards again")
    }
    entries.sort { $0.input.utf8.lexicographicallyPrecedes($1.input.utf8) }
    return Manifest(
      flipbookVersion: version ?? "", formats: formats ?? [], shard: nil, animations: entries)
  }
}
