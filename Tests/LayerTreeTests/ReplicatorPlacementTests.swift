import Geometry
import LayerTree
import Testing

/// A replicator's instance placements, made in one pass for drawing (issue 18: 10,000 instances
/// each made by k products took 41 s a frame).
@Suite struct ReplicatorPlacementTests {
  @Test func placementsInOnePassAreEachInstancesPlacementExactly() {
    let replicator = ReplicatorLayer()
    replicator.bounds = Rect(x: 0, y: 0, width: 30, height: 20)
    replicator.instanceTransform = Transform3D.rotation(0.3)
      .concatenating(.translation(x: 3, y: -1))
    let placements = replicator.instancePlacements(count: 50)
    #expect(placements.count == 50)
    for k in 0..<50 { #expect(placements[k] == replicator.instancePlacement(at: k)) }
    #expect(replicator.instancePlacements(count: 0).isEmpty)
  }
}
