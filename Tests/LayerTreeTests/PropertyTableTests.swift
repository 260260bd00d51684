import Animations
import Geometry
import Testing

@testable import LayerTree

/// The property table is the one declaration of every layer property: these pin its contents
/// and that every derived use (key paths, reading, writing) agrees with the typed accessors.
@Suite struct PropertyTableTests {
  @Test func namesAreUniqueAndFindTheirEntries() {
    let names = LayerProperty.all.map(\.name)
    #expect(Set(names).count == names.count)
    for property in LayerProperty.all {
      #expect(LayerProperty.named(property.name)?.name == property.name)
    }
    #expect(LayerProperty.named("opactiy") == nil)
  }

  @Test func defaultsAreCoreAnimations() {
    #expect(LayerProperty.opacity.defaultValue == .value(1))
    #expect(LayerProperty.anchorPoint.defaultValue == .value(.point(0.5, 0.5)))
    #expect(LayerProperty.borderColor.defaultValue == .value(.color(.black)))
    #expect(LayerProperty.backgroundColor.defaultValue == .value(.color(nil)))
    #expect(LayerProperty.transform.defaultValue == .value(.transform(.identity)))
    #expect(LayerProperty.fillColor.defaultValue == .value(.color(.black)))
    #expect(LayerProperty.strokeColor.defaultValue == .value(.color(nil)))
    #expect(LayerProperty.lineWidth.defaultValue == .value(1))
    #expect(LayerProperty.miterLimit.defaultValue == .value(10))
    #expect(LayerProperty.strokeEnd.defaultValue == .value(1))
    #expect(LayerProperty.lineCap.defaultValue == .choice("butt"))
    #expect(LayerProperty.contentsGravity.defaultValue == .choice("resize"))
    #expect(LayerProperty.collisionBoundsType.defaultValue == .choice("rectangle"))
    #expect(LayerProperty.lineDashPattern.defaultValue == .value(.numbers(nil)))
  }

  @Test func shapePropertiesBelongToShapeLayersOnly() {
    let plain = Layer(), shape = ShapeLayer()
    #expect(LayerProperty.strokeEnd.value(of: plain) == nil)
    #expect(LayerProperty.strokeEnd.value(of: shape) == .value(1))
    LayerProperty.strokeEnd.setValue(.value(0.5), of: plain)  // ignored, no trap
    LayerProperty.strokeEnd.setValue(.value(0.5), of: shape)
    #expect(shape.strokeEnd == 0.5)
    #expect(LayerProperty.opacity.value(of: shape) == .value(1))
  }

  @Test func everyPropertyWritesWhatItReads() {
    // Write a value different from the default through the table; the typed accessor and the
    // table read it back, and a value of another kind changes nothing.
    let samples: [AnimationValueKind: AnimationValue] = [
      .scalar: 3, .point: .point(4, 5), .size: .size(Size(6, 7)), .rect: .rect(Rect(1, 2, 3, 4)),
      .color: .color(Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)),
      .transform: .transform(.rotation(0.5)),
      .path: .path(Path(rect: Rect(0, 0, 2, 2))), .bool: true, .image: .image(nil),
      .colors: .colors([.white, .black]), .numbers: .numbers([0, 0.5]), .text: .text("y"),
      .filters: .filters([.gaussianBlur(radius: 2), .fill(color: .white, opacity: 0.5)]),
    ]
    for property in LayerProperty.all {
      let layer = property.layerType.makeLayer()
      let value: PropertyValue
      switch property.kind {
      case .value(let kind): value = .value(samples[kind]!)
      case .choice(let names): value = .choice(names.last!)
      case .text: value = .text("x")
      }
      property.setValue(value, of: layer)
      #expect(property.value(of: layer) == value, "\(property.name)")
      property.setValue(.text("wrong kind"), of: layer)
      if case .text = property.kind { continue }
      #expect(property.value(of: layer) == value, "\(property.name) took a value of another kind")
    }
  }

  @Test func keyPathsNameAPropertyAndAComponentOfItsKind() throws {
    let x = try #require(LayerKeyPath("position.x"))
    #expect(x.property.name == "position" && x.component == .x && x.valueKind == .scalar)
    #expect(LayerKeyPath("transform.rotation") == LayerKeyPath("transform.rotation.z"))
    #expect(LayerKeyPath("transform.rotation")?.name == "transform.rotation.z")
    #expect(LayerKeyPath("bounds.size")?.valueKind == .size)
    #expect(LayerKeyPath("bounds.origin.x")?.valueKind == .scalar)
    #expect(LayerKeyPath("opacity.x") == nil)  // a number has no components
    #expect(LayerKeyPath("masksToBounds") == nil)  // does not animate
    #expect(LayerKeyPath("lineCap") == nil)
    #expect(LayerKeyPath("strokeEnd")?.property.layerType == .shape)
    for name in LayerKeyPath.allNames {
      let keyPath = try #require(LayerKeyPath(name), "\(name)")
      #expect(LayerKeyPath(target: keyPath.target) == keyPath)
    }
  }

  @Test func componentsReadAndReplaceTheirPart() {
    let layer = Layer()
    layer.bounds = Rect(10, 20, 30, 40)
    layer.setValue(50, forKeyPath: "bounds.size.width")
    #expect(layer.bounds == Rect(10, 20, 50, 40))
    layer.setValue(.point(1, 2), forKeyPath: "bounds.origin")
    #expect(layer.bounds == Rect(1, 2, 50, 40))
    layer.setValue(2, forKeyPath: "transform.scale")
    #expect(layer.transform == .scale(x: 2, y: 2))
    #expect(layer.value(forKeyPath: "transform.scale") == 2)
    layer.setValue(.point(1, 2), forKeyPath: "position.x")  // wrong kind: nothing changes
    #expect(layer.position == .zero)
  }
}
