import Animations
import Dynamics
import Geometry

// The property table: every layer property Flipbook knows, declared once. The order of `all` is
// the order `flipbook inspect` prints properties in.
//
// This is the only source file (outside the demos) that spells property names: key paths, scene
// files and `flipbook inspect` find properties here.

extension LayerProperty {
  /// Every layer property, in `flipbook inspect`'s order: the properties every layer has, then
  /// those of shape layers, then those of text layers.
  public static let all: [LayerProperty] = [
    layerName, position, bounds, anchorPoint, opacity, transform, sublayerTransform, zPosition,
    anchorPointZ, hidden, isDoubleSided,
    cornerRadius, borderWidth, borderColor, backgroundColor, contents, masksToBounds,
    contentsGravity,
    contentsScale, beginTime, speed, timeOffset, collisionBoundsType,
    shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath, contentsRect,
    contentsCenter, compositingFilter, maskMode, filters,
    path, fillColor, strokeColor, lineWidth, lineDashPhase, strokeStart, strokeEnd, miterLimit,
    lineCap,
    lineJoin, lineDashPattern, fillRule, pathOperation,
    string, font, fontSize, foregroundColor, isWrapped, truncationMode, alignmentMode,
    colors, locations, startPoint, endPoint, gradientType, focalOffset,
    instanceCount, instanceTransform, instanceDelay, instanceColor, instanceRedOffset,
    instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset, preservesDepth,
  ]

  /// The property called `name`, if there is one.
  public static func named(_ name: String) -> LayerProperty? {
    indexByName[name].map { all[$0] }
  }

  /// Positions in `all` by name.
  static let indexByName: [String: Int] = Dictionary(
    uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })

  // MARK: Every layer (CALayer)

  /// `name`: what scene files, dynamics and `flipbook inspect` call the layer.
  public static let layerName = LayerProperty(
    "name", .text, animatable: false, inspected: true,
    get: { .text($0.properties.name) },
    set: { if case .text(let s) = $1 { $0.properties.name = s } })
  /// `position`, in points.
  public static let position = pointProperty(
    "position", { $0.properties.position }, { $0.properties.position = $1 })
  /// `bounds`, in points.
  public static let bounds = rectProperty(
    "bounds", range: .nonNegative, { $0.properties.bounds }, { $0.properties.bounds = $1 })
  /// `anchorPoint`, in the unit space of the bounds.
  public static let anchorPoint = pointProperty(
    "anchorPoint", { $0.properties.anchorPoint }, { $0.properties.anchorPoint = $1 })
  /// `opacity`, 0...1.
  public static let opacity = scalarProperty(
    "opacity", { $0.properties.opacity }, { $0.properties.opacity = $1 })
  /// `transform`.
  public static let transform = transformProperty(
    "transform", { $0.properties.transform }, { $0.properties.transform = $1 })
  /// `sublayerTransform`.
  public static let sublayerTransform = transformProperty(
    "sublayerTransform", { $0.properties.sublayerTransform },
    { $0.properties.sublayerTransform = $1 })
  /// `zPosition`.
  public static let zPosition = scalarProperty(
    "zPosition", { $0.properties.zPosition }, { $0.properties.zPosition = $1 })
  /// `anchorPointZ`, in points.
  public static let anchorPointZ = scalarProperty(
    "anchorPointZ", { $0.properties.anchorPointZ }, { $0.properties.anchorPointZ = $1 })
  /// `isDoubleSided` (the scene files' spelling, visual-effects.md §7; Core Animation's key is
  /// `doubleSided`): whether the layer shows seen from behind.
  public static let isDoubleSided = boolProperty(
    "isDoubleSided", { $0.properties.isDoubleSided }, { $0.properties.isDoubleSided = $1 })
  /// `hidden` (Core Animation's key for `isHidden`).
  public static let hidden = boolProperty(
    "hidden", { $0.properties.isHidden }, { $0.properties.isHidden = $1 })
  /// `cornerRadius`, in points.
  public static let cornerRadius = scalarProperty(
    "cornerRadius", range: .nonNegative, { $0.properties.cornerRadius },
    { $0.properties.cornerRadius = $1 })
  /// `borderWidth`, in points.
  public static let borderWidth = scalarProperty(
    "borderWidth", range: .nonNegative, { $0.properties.borderWidth },
    { $0.properties.borderWidth = $1 })
  /// `borderColor`.
  public static let borderColor = colorProperty(
    "borderColor", { $0.properties.borderColor }, { $0.properties.borderColor = $1 })
  /// `backgroundColor`.
  public static let backgroundColor = colorProperty(
    "backgroundColor", { $0.properties.backgroundColor }, { $0.properties.backgroundColor = $1 })
  /// `contents`: an image.
  public static let contents = imageProperty(
    "contents", { $0.properties.contents }, { $0.properties.contents = $1 })
  /// `masksToBounds`.
  public static let masksToBounds = boolProperty(
    "masksToBounds", animatable: false, { $0.properties.masksToBounds },
    { $0.properties.masksToBounds = $1 })
  /// `contentsGravity`.
  public static let contentsGravity = choiceProperty(
    "contentsGravity", { $0.properties.contentsGravity }, { $0.properties.contentsGravity = $1 })
  /// `contentsScale`: image pixels per point.
  public static let contentsScale = scalarProperty(
    "contentsScale", animatable: false, range: .positive, { $0.properties.contentsScale },
    { $0.properties.contentsScale = $1 })
  /// `beginTime` of the layer's own timing, in seconds.
  public static let beginTime = scalarProperty(
    "beginTime", animatable: false, { $0.properties.timing.beginTime },
    { $0.properties.timing.beginTime = $1 })
  /// `speed` of the layer's own timing (a `Float`, as Core Animation's).
  public static let speed = scalarProperty(
    "speed", animatable: false, range: .float, { Double($0.properties.timing.speed) },
    { $0.properties.timing.speed = Float($1) })
  /// `timeOffset` of the layer's own timing, in seconds.
  public static let timeOffset = scalarProperty(
    "timeOffset", animatable: false, { $0.properties.timing.timeOffset },
    { $0.properties.timing.timeOffset = $1 })
  /// `collisionBoundsType`: the shape dynamics collides the layer as.
  public static let collisionBoundsType = choiceProperty(
    "collisionBoundsType", { $0.properties.collisionBoundsType },
    { $0.properties.collisionBoundsType = $1 })

  // MARK: Shadows and contents rectangles (every layer; visual-effects.md §1, §3)

  /// `shadowColor`.
  public static let shadowColor = colorProperty(
    "shadowColor", { $0.properties.effects.shadowColor }, { $0.properties.effects.shadowColor = $1 }
  )
  /// `shadowOpacity`, 0...1.
  public static let shadowOpacity = scalarProperty(
    "shadowOpacity", { $0.properties.effects.shadowOpacity },
    { $0.properties.effects.shadowOpacity = $1 })
  /// `shadowOffset`, in points of the layer's own space.
  public static let shadowOffset = sizeProperty(
    "shadowOffset", { $0.properties.effects.shadowOffset },
    { $0.properties.effects.shadowOffset = $1 })
  /// `shadowRadius`: the blur's standard deviation, in points.
  public static let shadowRadius = scalarProperty(
    "shadowRadius", range: .nonNegative, { $0.properties.effects.shadowRadius },
    { $0.properties.effects.shadowRadius = $1 })
  /// `shadowPath`, in the layer's coordinates.
  public static let shadowPath = pathProperty(
    "shadowPath", of: .layer, { $0.properties.effects.shadowPath },
    { $0.properties.effects.shadowPath = $1 })
  /// `contentsRect`, in unit coordinates of the image.
  public static let contentsRect = rectProperty(
    "contentsRect", range: .nonNegative, { $0.properties.effects.contentsRect },
    { $0.properties.effects.contentsRect = $1 })
  /// `contentsCenter`, in unit coordinates of the image.
  public static let contentsCenter = rectProperty(
    "contentsCenter", range: .nonNegative, { $0.properties.effects.contentsCenter },
    { $0.properties.effects.contentsCenter = $1 })

  // MARK: Compositing, mask modes and filters (every layer; scene-format.md, "Blend modes")

  /// `compositingFilter`: the blend mode or operator the layer's group is composited with.
  public static let compositingFilter = choiceProperty(
    "compositingFilter", inspected: true, { $0.properties.effects.compositingFilter },
    { $0.properties.effects.compositingFilter = $1 })
  /// `maskMode`: how the mask turns into coverage (a Flipbook extension).
  public static let maskMode = choiceProperty(
    "maskMode", inspected: true, { $0.properties.effects.maskMode },
    { $0.properties.effects.maskMode = $1 })
  /// `filters`: the layer's filters, in order; their parameters animate.
  public static let filters = entry(
    "filters", .filters, of: .layer, animatable: true, range: .any,
    wrap: { AnimationValue.filters($0) },
    unwrap: { if case .filters(let f) = $0 { return f } else { return nil } },
    { $0.properties.effects.filters }, { $0.properties.effects.filters = $1 })

  // MARK: Shape layers (CAShapeLayer)

  /// `path`.
  public static let path = pathProperty(
    "path", of: .shape, { $0.shape.path }, { $0.shape.path = $1 })
  /// `fillColor`.
  public static let fillColor = colorProperty(
    "fillColor", of: .shape, { $0.shape.fillColor }, { $0.shape.fillColor = $1 })
  /// `strokeColor`.
  public static let strokeColor = colorProperty(
    "strokeColor", of: .shape, { $0.shape.strokeColor }, { $0.shape.strokeColor = $1 })
  /// `lineWidth`, in points.
  public static let lineWidth = scalarProperty(
    "lineWidth", of: .shape, range: .nonNegative, { $0.shape.lineWidth },
    { $0.shape.lineWidth = $1 })
  /// `lineDashPhase`, in points.
  public static let lineDashPhase = scalarProperty(
    "lineDashPhase", of: .shape, { $0.shape.lineDashPhase }, { $0.shape.lineDashPhase = $1 })
  /// `strokeStart`, a fraction of the path's length.
  public static let strokeStart = scalarProperty(
    "strokeStart", of: .shape, { $0.shape.strokeStart }, { $0.shape.strokeStart = $1 })
  /// `strokeEnd`, a fraction of the path's length.
  public static let strokeEnd = scalarProperty(
    "strokeEnd", of: .shape, { $0.shape.strokeEnd }, { $0.shape.strokeEnd = $1 })
  /// `miterLimit`.
  public static let miterLimit = scalarProperty(
    "miterLimit", of: .shape, range: .nonNegative, { $0.shape.miterLimit },
    { $0.shape.miterLimit = $1 })
  /// `lineCap`.
  public static let lineCap = choiceProperty(
    "lineCap", of: .shape, { $0.shape.lineCap }, { $0.shape.lineCap = $1 })
  /// `lineJoin`.
  public static let lineJoin = choiceProperty(
    "lineJoin", of: .shape, { $0.shape.lineJoin }, { $0.shape.lineJoin = $1 })
  /// `lineDashPattern`: dash and gap lengths in points, or none. Animatable, a Flipbook
  /// extension (Core Animation's is not): patterns of the same length interpolate element by
  /// element, others switch halfway, as `locations` do; negative lengths that an overshooting
  /// curve makes draw a solid line, as an invalid pattern does.
  public static let lineDashPattern = entry(
    "lineDashPattern", .numbers, of: .shape, animatable: true, range: .nonNegative,
    wrap: { AnimationValue.numbers($0) },
    unwrap: { if case .numbers(let n) = $0 { return .some(n) } else { return nil } },
    { $0.shape.lineDashPattern }, { $0.shape.lineDashPattern = $1 })
  /// `fillRule`.
  public static let fillRule = choiceProperty(
    "fillRule", of: .shape, { $0.shape.fillRule }, { $0.shape.fillRule = $1 })
  /// `pathOperation`: how the path's subpaths combine (a Flipbook extension).
  public static let pathOperation = choiceProperty(
    "pathOperation", of: .shape, { $0.shape.pathOperation }, { $0.shape.pathOperation = $1 })

  // MARK: Text layers (CATextLayer)

  /// `string`: the text, or none. Animatable, a Flipbook extension (Core Animation's is not):
  /// it changes discretely, so that counters and captions can change on cue.
  public static let string = entry(
    "string", .text, of: .text, animatable: true, range: .any,
    wrap: { AnimationValue.text($0) },
    unwrap: { if case .text(let s) = $0 { return .some(s) } else { return nil } },
    { $0.text.string }, { $0.text.string = $1 })
  /// `font`: the font's name (`null` in a scene file is the default, Helvetica).
  public static let font = LayerProperty(
    "font", .text, of: .text, animatable: false, inspected: true,
    get: { .text($0.text.font) },
    set: { if case .text(let s) = $1 { $0.text.font = s ?? TextProperties().font } })
  /// `fontSize`, in points.
  public static let fontSize = scalarProperty(
    "fontSize", of: .text, range: .nonNegativeAtMost(TextLayer.maximumFontSize),
    { $0.text.fontSize }, { $0.text.fontSize = $1 })
  /// `foregroundColor`: the text's color.
  public static let foregroundColor = colorProperty(
    "foregroundColor", of: .text, { $0.text.foregroundColor }, { $0.text.foregroundColor = $1 })
  /// `isWrapped`: whether lines wrap to the bounds' width.
  public static let isWrapped = boolProperty(
    "isWrapped", of: .text, animatable: false, { $0.text.isWrapped }, { $0.text.isWrapped = $1 })
  /// `truncationMode`.
  public static let truncationMode = choiceProperty(
    "truncationMode", of: .text, { $0.text.truncationMode }, { $0.text.truncationMode = $1 })
  /// `alignmentMode`.
  public static let alignmentMode = choiceProperty(
    "alignmentMode", of: .text, { $0.text.alignmentMode }, { $0.text.alignmentMode = $1 })
}

extension LayerProperty {
  // MARK: Gradient layers (CAGradientLayer; visual-effects.md §4)

  /// `colors`: the stops' colors, or none.
  public static let colors = entry(
    "colors", .colors, of: .gradient, animatable: true, range: .any,
    wrap: { AnimationValue.colors($0) },
    unwrap: { if case .colors(let c) = $0 { return .some(c) } else { return nil } },
    { $0.gradient.colors }, { $0.gradient.colors = $1 })
  /// `locations`: the stops' locations 0...1, or none (evenly spaced).
  public static let locations = entry(
    "locations", .numbers, of: .gradient, animatable: true, range: .unit,
    wrap: { AnimationValue.numbers($0) },
    unwrap: { if case .numbers(let n) = $0 { return .some(n) } else { return nil } },
    { $0.gradient.locations }, { $0.gradient.locations = $1 })
  /// `startPoint`, in unit coordinates of the bounds.
  public static let startPoint = pointProperty(
    "startPoint", of: .gradient, { $0.gradient.startPoint }, { $0.gradient.startPoint = $1 })
  /// `endPoint`, in unit coordinates of the bounds.
  public static let endPoint = pointProperty(
    "endPoint", of: .gradient, { $0.gradient.endPoint }, { $0.gradient.endPoint = $1 })
  /// `focalOffset`: a radial gradient's focal point less `startPoint`, in unit coordinates (a
  /// Flipbook extension).
  public static let focalOffset = pointProperty(
    "focalOffset", of: .gradient, { $0.gradient.focalOffset }, { $0.gradient.focalOffset = $1 })
  /// `gradientType`: Core Animation's `type` of a gradient layer (`"axial"`, `"radial"`,
  /// `"conic"`).
  public static let gradientType = choiceProperty(
    "gradientType", of: .gradient, { $0.gradient.type }, { $0.gradient.type = $1 })

  // MARK: Replicator layers (CAReplicatorLayer; visual-effects.md §6)

  /// `instanceCount`: how many times the sublayers are drawn (animated values round down).
  public static let instanceCount = scalarProperty(
    "instanceCount", of: .replicator, range: .nonNegative,
    { Double($0.replicator.instanceCount) },
    { $0.replicator.instanceCount = Int(Swift.min(1e9, Swift.max(0, $1.rounded(.down)))) })
  /// `instanceTransform`, applied about the replicator's centre.
  public static let instanceTransform = transformProperty(
    "instanceTransform", of: .replicator,
    { $0.replicator.instanceTransform }, { $0.replicator.instanceTransform = $1 })
  /// `instanceDelay`, in seconds.
  public static let instanceDelay = scalarProperty(
    "instanceDelay", of: .replicator,
    { $0.replicator.instanceDelay }, { $0.replicator.instanceDelay = $1 })
  /// `instanceColor`.
  public static let instanceColor = colorProperty(
    "instanceColor", of: .replicator,
    { $0.replicator.instanceColor }, { $0.replicator.instanceColor = $1 })
  /// `instanceRedOffset`.
  public static let instanceRedOffset = scalarProperty(
    "instanceRedOffset", of: .replicator,
    { $0.replicator.instanceRedOffset }, { $0.replicator.instanceRedOffset = $1 })
  /// `instanceGreenOffset`.
  public static let instanceGreenOffset = scalarProperty(
    "instanceGreenOffset", of: .replicator,
    { $0.replicator.instanceGreenOffset }, { $0.replicator.instanceGreenOffset = $1 })
  /// `instanceBlueOffset`.
  public static let instanceBlueOffset = scalarProperty(
    "instanceBlueOffset", of: .replicator,
    { $0.replicator.instanceBlueOffset }, { $0.replicator.instanceBlueOffset = $1 })
  /// `instanceAlphaOffset`.
  public static let instanceAlphaOffset = scalarProperty(
    "instanceAlphaOffset", of: .replicator,
    { $0.replicator.instanceAlphaOffset }, { $0.replicator.instanceAlphaOffset = $1 })
  /// `preservesDepth`: whether instances are drawn in depth order as a transform layer's
  /// sublayers (visual-effects.md §7).
  public static let preservesDepth = boolProperty(
    "preservesDepth", of: .replicator, animatable: false,
    { $0.replicator.preservesDepth }, { $0.replicator.preservesDepth = $1 })
}

// MARK: Building entries

extension LayerProperty {
  fileprivate typealias Get<T> = @Sendable (LayerStorage) -> T
  fileprivate typealias Set<T> = @Sendable (inout LayerStorage, T) -> Void

  fileprivate static func entry<T>(
    _ name: String, _ kind: AnimationValueKind, of type: LayerType, animatable: Bool,
    range: ValueRange,
    wrap: @escaping @Sendable (T) -> AnimationValue,
    replacing: (@Sendable (ValueComponent, T, AnimationValue) -> T?)? = nil,
    unwrap: @escaping @Sendable (AnimationValue) -> T?,
    _ get: @escaping Get<T>, _ set: @escaping Set<T>
  ) -> LayerProperty {
    LayerProperty(
      name, .value(kind), of: type, animatable: animatable, range: range,
      get: { .value(wrap(get($0))) },
      set: { if case .value(let v) = $1, let x = unwrap(v) { set(&$0, x) } },
      setComponent: { storage, component, part in
        if let replacing, let x = replacing(component, get(storage), part) { set(&storage, x) }
      })
  }

  fileprivate static func scalarProperty(
    _ name: String, of type: LayerType = .layer, animatable: Bool = true, range: ValueRange = .any,
    _ get: @escaping Get<Double>, _ set: @escaping Set<Double>
  ) -> LayerProperty {
    entry(
      name, .scalar, of: type, animatable: animatable, range: range, wrap: { .scalar($0) },
      unwrap: {
        if case .scalar(let x) = $0 { return x } else { return nil }
      }, get, set)
  }

  fileprivate static func pointProperty(
    _ name: String, of type: LayerType = .layer, _ get: @escaping Get<Point>,
    _ set: @escaping Set<Point>
  ) -> LayerProperty {
    entry(
      name, .point, of: type, animatable: true, range: .any, wrap: { .point($0) },
      replacing: { $0.replacing(in: $1, with: $2) },
      unwrap: {
        if case .point(let p) = $0 { return p } else { return nil }
      }, get, set)
  }

  private static func sizeProperty(
    _ name: String, _ get: @escaping Get<Size>, _ set: @escaping Set<Size>
  ) -> LayerProperty {
    entry(
      name, .size, of: .layer, animatable: true, range: .any, wrap: { .size($0) },
      replacing: { $0.replacing(in: $1, with: $2) },
      unwrap: {
        if case .size(let s) = $0 { return s } else { return nil }
      }, get, set)
  }

  fileprivate static func rectProperty(
    _ name: String, range: ValueRange, _ get: @escaping Get<Rect>, _ set: @escaping Set<Rect>
  ) -> LayerProperty {
    entry(
      name, .rect, of: .layer, animatable: true, range: range, wrap: { .rect($0) },
      replacing: { $0.replacing(in: $1, with: $2) },
      unwrap: {
        if case .rect(let r) = $0 { return r } else { return nil }
      }, get, set)
  }

  fileprivate static func colorProperty(
    _ name: String, of type: LayerType = .layer, _ get: @escaping Get<Color?>,
    _ set: @escaping Set<Color?>
  ) -> LayerProperty {
    entry(
      name, .color, of: type, animatable: true, range: .any, wrap: { .color($0) },
      unwrap: {
        if case .color(let c) = $0 { return .some(c) } else { return nil }
      }, get, set)
  }

  fileprivate static func transformProperty(
    _ name: String, of type: LayerType = .layer, _ get: @escaping Get<Transform3D>,
    _ set: @escaping Set<Transform3D>
  ) -> LayerProperty {
    entry(
      name, .transform, of: type, animatable: true, range: .any, wrap: { .transform($0) },
      replacing: { $0.replacing(in: $1, with: $2) },
      unwrap: {
        if case .transform(let t) = $0 { return t } else { return nil }
      }, get, set)
  }

  fileprivate static func pathProperty(
    _ name: String, of type: LayerType, _ get: @escaping Get<Path?>, _ set: @escaping Set<Path?>
  ) -> LayerProperty {
    entry(
      name, .path, of: type, animatable: true, range: .any, wrap: { .path($0) },
      unwrap: {
        if case .path(let p) = $0 { return .some(p) } else { return nil }
      }, get, set)
  }

  private static func imageProperty(
    _ name: String, _ get: @escaping Get<Image?>, _ set: @escaping Set<Image?>
  ) -> LayerProperty {
    entry(
      name, .image, of: .layer, animatable: true, range: .any, wrap: { .image($0) },
      unwrap: {
        if case .image(let i) = $0 { return .some(i) } else { return nil }
      }, get, set)
  }

  fileprivate static func boolProperty(
    _ name: String, of type: LayerType = .layer, animatable: Bool = true,
    _ get: @escaping Get<Bool>,
    _ set: @escaping Set<Bool>
  ) -> LayerProperty {
    entry(
      name, .bool, of: type, animatable: animatable, range: .any, wrap: { .bool($0) },
      unwrap: {
        if case .bool(let b) = $0 { return b } else { return nil }
      }, get, set)
  }

  /// A property holding one of an enumeration's cases, named by their raw values.
  fileprivate static func choiceProperty<T: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, of type: LayerType = .layer, inspected: Bool = false, _ get: @escaping Get<T>,
    _ set: @escaping Set<T>
  ) -> LayerProperty where T.RawValue == String {
    LayerProperty(
      name, .choice(T.allCases.map(\.rawValue)), of: type, animatable: false,
      inspected: inspected,
      get: { .choice(get($0).rawValue) },
      set: { if case .choice(let s) = $1, let x = T(rawValue: s) { set(&$0, x) } })
  }
}
