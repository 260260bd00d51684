import Animations

/// The value a lone animation (and, for groups, its children in order) gives a scalar property
/// whose model value is `model` (-1 by default, so "the model shows" is visible), at `t`.
func value(of animation: any Animation, at t: Double, model: Double = -1) -> Double {
  var collected: [AnimationSample] = []
  samples(of: animation, at: t, into: &collected)
  var v = AnimationValue.scalar(model)
  for sample in collected { v = sample.value(model: .scalar(model), underlying: v) }
  guard case .scalar(let x) = v else { return .nan }
  return x
}

/// A basic animation of opacity from 0 to 100 over 1 s, then configured.
func basic(_ configure: (inout BasicAnimation) -> Void = { _ in }) -> BasicAnimation {
  var a = BasicAnimation(keyPath: "opacity")
  a.fromValue = 0
  a.toValue = 100
  a.duration = 1
  configure(&a)
  return a
}

func isClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
  abs(a - b) <= tolerance
}
