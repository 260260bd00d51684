import CPangoCairo
import Parallelism

// The text engine: Pango lays out and shapes (with HarfBuzz) over a private fontconfig set, and
// the results become `TextLayout`s that canvases draw with Cairo alone.
//
// Machine independence:
// - Fonts: a fontconfig configuration of its own, holding exactly the font files listed in
//   `TextEngine.fontFiles` (Debian's fonts-liberation2, fonts-dejavu-core, fonts-wqy-microhei,
//   which scripts/setup installs) and no configuration files, so no machine's aliases, rules or
//   extra fonts change which face a name resolves to or which face falls back for a character.
// - Language: "en-us" whatever the locale (Pango would take it from LANG; it steers font
//   fallback and language-specific shaping). Each run's script still picks its own shaping.
// - Rendering options: gray anti-aliasing, no hinting, hint metrics off, on every font;
//   Pango's glyph positions are kept unrounded (subpixel layout), and Cairo's image surfaces
//   then place each glyph image on the whole device pixel nearest its position.
// Pango and fontconfig are used only under one lock; the layouts it produces are immutable and
// hold Cairo scaled fonts, which are safe to use from any thread.

/// The engine's state; only ever touched inside `textEngine`'s lock.
final class TextEngine {
  /// The font files the engine knows: the faces `scripts/setup` installs.
  static let fontFiles = [
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Italic.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-BoldItalic.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Italic.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-BoldItalic.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-Italic.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationMono-BoldItalic.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
  ]

  /// Apple's names for faces Flipbook does not have, and the metric-compatible faces they
  /// resolve to (PostScript names; normalized: lowercase, no spaces).
  static let aliases: [String: String] = [
    "helvetica": "liberationsans", "helvetica-bold": "liberationsans-bold",
    "helvetica-oblique": "liberationsans-italic",
    "helvetica-boldoblique": "liberationsans-bolditalic",
    "helveticaneue": "liberationsans", "helveticaneue-bold": "liberationsans-bold",
    "helveticaneue-italic": "liberationsans-italic",
    "helveticaneue-bolditalic": "liberationsans-bolditalic",
    "arial": "liberationsans", "arialmt": "liberationsans", "arial-boldmt": "liberationsans-bold",
    "arial-italicmt": "liberationsans-italic", "arial-bolditalicmt": "liberationsans-bolditalic",
    "arial-bold": "liberationsans-bold", "arial-italic": "liberationsans-italic",
    "arial-bolditalic": "liberationsans-bolditalic",
    "times": "liberationserif", "times-roman": "liberationserif",
    "timesnewroman": "liberationserif",
    "timesnewromanpsmt": "liberationserif", "times-bold": "liberationserif-bold",
    "timesnewromanps-boldmt": "liberationserif-bold", "courier": "liberationmono",
    "couriernew": "liberationmono", "couriernewpsmt": "liberationmono",
    "courier-bold": "liberationmono-bold",
  ]

  /// One face of the font set, as fontconfig lists it.
  struct Face {
    let pattern: OpaquePointer
    let families: [String]
    let style: String
    let postScriptName: String
    let weight: Int32
    let slant: Int32
  }

  let config: OpaquePointer
  let fontMap: UnsafeMutablePointer<PangoFontMap>
  let context: OpaquePointer
  let faces: [Face]
  /// Font names already resolved: a Pango description of the face, or `nil` for none.
  var descriptions: [String: OpaquePointer?] = [:]
  /// Layouts made so far, by string and style.
  var layouts: [LayoutKey: TextLayout] = [:]
  /// The characters (UTF-8 bytes) of the strings in `layouts`, against `cacheCharacterLimit`.
  var cachedCharacters = 0

  /// The fonts and sizes Pango was asked for since its font map last forgot its fonts, against
  /// `fontSizeLimit`.
  var sizesAsked: Set<FontSize> = []
  /// How many times the font map has forgotten its fonts (for tests: other threads' layouts
  /// share the engine, so one forgetting may happen in theirs).
  var timesForgotten = 0

  /// A font name and size (points).
  struct FontSize: Hashable {
    let fontName: String
    let fontSize: Double
  }

  /// The most fonts and sizes Pango's font map is asked for before it forgets the fonts it
  /// made (`pango_fc_font_map_cache_clear`): 50. It keeps every font pattern it ever made in a
  /// table that hashes a size by its whole points, so that the patterns of sizes within one
  /// point were compared one by one and the work of each new size grew with the sizes before
  /// it: 1,000 labels of 100 Chinese characters, each at its own size between 10 and 11
  /// points, took 11.8 s for a frame and 3,000 57 s; 1,000 now take 2.5 s of CPU (1.0 s at
  /// one size; forgetting every 16 sizes did no better, every 200 worse).
  static let fontSizeLimit = 50

  /// Makes Pango's font map forget its fonts when `size` is a font and size new to it past
  /// `fontSizeLimit` (layouts made keep their own Cairo fonts; Pango finds its fonts again).
  func forgetFontsPastSizeLimit(adding size: FontSize) {
    guard !sizesAsked.contains(size) else { return }
    if sizesAsked.count >= Self.fontSizeLimit {
      flipbook_fc_font_map_cache_clear(fontMap)
      sizesAsked.removeAll()
      timesForgotten += 1
    }
    sizesAsked.insert(size)
  }

  struct LayoutKey: Hashable {
    let string: String
    let style: TextStyle
  }

  /// The most layouts kept; past it the cache starts again (a counter makes one per frame).
  static let cacheLimit = 100_000

  /// The most characters (UTF-8 bytes) of the strings whose layouts are kept: 8,000,000 (about
  /// 250 MB of glyphs), twice the text a frame may draw (`TextLayout.maximumCharactersPerFrame`),
  /// so that a frame's layouts are kept for the next frame: 10,000 wrapped labels, more than
  /// 4,096 layouts, were laid out again on every frame (107 s for 30 identical frames).
  static let cacheCharacterLimit = 8_000_000

  init() throws(CanvasError) {
    guard let config = FcConfigCreate() else {
      throw .cairo("fontconfig: cannot create a configuration")
    }
    for file in TextEngine.fontFiles {
      _ = FcConfigAppFontAddFile(config, file)
    }
    self.config = config
    let map = pango_cairo_font_map_new()!
    flipbook_fc_font_map_set_config(map, config)
    fontMap = map
    context = pango_font_map_create_context(map)
    let options = cairo_font_options_create()
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    pango_context_set_round_glyph_positions(context, 0)
    // One language whatever the machine's locale: it steers fallback order and shaping.
    pango_context_set_language(context, pango_language_from_string("en-us"))
    faces = TextEngine.listFaces(config)
  }

  private static func listFaces(_ config: OpaquePointer) -> [Face] {
    let pattern = FcPatternCreate()
    defer { FcPatternDestroy(pattern) }
    guard let set = FcFontList(config, pattern, nil) else { return [] }
    defer { FcFontSetDestroy(set) }
    var faces: [Face] = []
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      FcPatternReference(font)
      func string(_ object: String, _ n: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(font, object, n, &value) == FcResultMatch, let value else {
          return nil
        }
        return String(cString: value)
      }
      func integer(_ object: String) -> Int32 {
        var value: Int32 = 0
        return FcPatternGetInteger(font, object, 0, &value) == FcResultMatch ? value : 0
      }
      var families: [String] = []
      var n: Int32 = 0
      while let f = string(FC_FAMILY, n) {
        families.append(f)
        n += 1
      }
      faces.append(
        Face(
          pattern: font, families: families, style: string(FC_STYLE, 0) ?? "",
          postScriptName: string(FC_POSTSCRIPT_NAME, 0) ?? "", weight: integer(FC_WEIGHT),
          slant: integer(FC_SLANT)))
    }
    // A stable order whatever order fontconfig listed the files in.
    return faces.sorted { ($0.postScriptName, $0.style) < ($1.postScriptName, $1.style) }
  }

  /// Lowercase, spaces removed: how names are compared.
  static func normalized(_ name: String) -> String {
    String(name.lowercased().filter { $0 != " " })
  }

  /// The face `name` selects: an alias, a PostScript name, a family (its regular face) or
  /// `Family-Style`; `nil` when none matches.
  func face(named name: String) -> Face? {
    var key = TextEngine.normalized(name)
    if let alias = TextEngine.aliases[key] { key = alias }
    if let face = faces.first(where: { TextEngine.normalized($0.postScriptName) == key }) {
      return face
    }
    let regular = Int32(FC_WEIGHT_REGULAR)
    func family(_ faces: [Face], _ family: String) -> [Face] {
      faces.filter { $0.families.contains { TextEngine.normalized($0) == family } }
    }
    let inFamily = family(faces, key)
    if !inFamily.isEmpty {
      return inFamily.min {
        (abs($0.weight - regular), $0.slant) < (abs($1.weight - regular), $1.slant)
      }
    }
    if let dash = key.lastIndex(of: "-") {
      let style = String(key[key.index(after: dash)...])
      let candidates = family(faces, String(key[..<dash]))
      let wanted = [style, style.replacingOccurrences(of: "oblique", with: "italic")]
      return candidates.first { wanted.contains(TextEngine.normalized($0.style)) }
    }
    return nil
  }

  /// The face of `family` (an alias, or a family of the set) nearest the weight, slant and
  /// width that `style`'s words name ("Bold", "Light", "Semibold", "Black", "Italic", "Oblique",
  /// "Condensed", ...), as fontconfig matches them; `nil` when the set has no such family.
  func face(family: String, style: String) -> Face? {
    var key = TextEngine.normalized(family)
    if let alias = TextEngine.aliases[key],
      let face = faces.first(where: { TextEngine.normalized($0.postScriptName) == alias })
    {
      key = TextEngine.normalized(face.families.first ?? "")
    }
    guard
      let name = faces.lazy.flatMap(\.families).first(where: { TextEngine.normalized($0) == key })
    else { return nil }
    let words = TextEngine.StyleWords(style)
    guard let pattern = FcPatternCreate() else { return nil }
    defer { FcPatternDestroy(pattern) }
    _ = FcPatternAddString(pattern, FC_FAMILY, name)
    _ = FcPatternAddInteger(pattern, FC_WEIGHT, words.weight)
    _ = FcPatternAddInteger(pattern, FC_SLANT, words.slant)
    _ = FcPatternAddInteger(pattern, FC_WIDTH, words.width)
    FcDefaultSubstitute(pattern)
    var result = FcResultNoMatch
    guard let match = FcFontMatch(config, pattern, &result) else { return nil }
    defer { FcPatternDestroy(match) }
    var value: UnsafeMutablePointer<FcChar8>? = nil
    guard FcPatternGetString(match, FC_POSTSCRIPT_NAME, 0, &value) == FcResultMatch, let value
    else { return nil }
    let postScriptName = String(cString: value)
    return faces.first {
      $0.postScriptName == postScriptName
        && $0.families.contains { TextEngine.normalized($0) == key }
    }
  }

  /// The weight, slant and width (fontconfig's scales) a style name's words ask for:
  /// regular, upright and normal width unless a word says otherwise.
  struct StyleWords {
    var weight = Int32(FC_WEIGHT_REGULAR)
    var slant = Int32(FC_SLANT_ROMAN)
    var width = Int32(FC_WIDTH_NORMAL)

    init(_ style: String) {
      // Lowercase, without spaces or hyphens: "Semi Bold", "SemiBold" and "Semi-Bold" alike.
      let s = String(style.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
      let weights: [(String, Int32)] = [
        ("extrablack", FC_WEIGHT_EXTRABLACK), ("ultrablack", FC_WEIGHT_ULTRABLACK),
        ("extrabold", FC_WEIGHT_EXTRABOLD), ("ultrabold", FC_WEIGHT_ULTRABOLD),
        ("semibold", FC_WEIGHT_SEMIBOLD), ("demibold", FC_WEIGHT_DEMIBOLD),
        ("black", FC_WEIGHT_BLACK), ("heavy", FC_WEIGHT_HEAVY), ("bold", FC_WEIGHT_BOLD),
        ("extralight", FC_WEIGHT_EXTRALIGHT), ("ultralight", FC_WEIGHT_ULTRALIGHT),
        ("semilight", FC_WEIGHT_SEMILIGHT), ("demilight", FC_WEIGHT_DEMILIGHT),
        ("light", FC_WEIGHT_LIGHT), ("thin", FC_WEIGHT_THIN), ("hairline", FC_WEIGHT_THIN),
        ("medium", FC_WEIGHT_MEDIUM), ("book", FC_WEIGHT_BOOK),
      ].map { ($0, Int32($1)) }
      if let w = weights.first(where: { s.contains($0.0) }) { weight = w.1 }
      if s.contains("italic") {
        slant = Int32(FC_SLANT_ITALIC)
      } else if s.contains("oblique") {
        slant = Int32(FC_SLANT_OBLIQUE)
      }
      let widths: [(String, Int32)] = [
        ("ultracondensed", FC_WIDTH_ULTRACONDENSED), ("extracondensed", FC_WIDTH_EXTRACONDENSED),
        ("semicondensed", FC_WIDTH_SEMICONDENSED), ("condensed", FC_WIDTH_CONDENSED),
        ("narrow", FC_WIDTH_CONDENSED), ("ultraexpanded", FC_WIDTH_ULTRAEXPANDED),
        ("extraexpanded", FC_WIDTH_EXTRAEXPANDED), ("semiexpanded", FC_WIDTH_SEMIEXPANDED),
        ("expanded", FC_WIDTH_EXPANDED), ("extended", FC_WIDTH_EXPANDED),
      ].map { ($0, Int32($1)) }
      if let w = widths.first(where: { s.contains($0.0) }) { width = w.1 }
    }
  }

  /// A Pango description of the face `name` selects (owned by the engine), or `nil`.
  func description(named name: String) -> OpaquePointer? {
    if let known = descriptions[name] { return known }
    let description = face(named: name).map {
      pango_fc_font_description_from_pattern($0.pattern, 0)!
    }
    descriptions[name] = description
    return description
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = "", rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

/// The one text engine, made on first use.
let textEngine = Locked<TextEngine?>(nil)

/// Runs `body` with the engine, under its lock.
func withTextEngine<R: Sendable>(
  _ body: (TextEngine) throws(CanvasError) -> R
) throws(CanvasError) -> R {
  let result: Result<R, CanvasError> = textEngine.withLock { engine in
    do throws(CanvasError) {
      if engine == nil { engine = try TextEngine() }
      return .success(try body(engine!))
    } catch {
      return .failure(error)
    }
  }
  return try result.get()
}
