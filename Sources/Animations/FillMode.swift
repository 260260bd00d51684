/// What an animation shows outside its active interval (`CAMediaTimingFillMode`).
public enum FillMode: String, Hashable, Sendable, CaseIterable {
  /// Nothing: the model value shows before and after (the default).
  case removed
  /// The final value stays after the active interval (only while the animation is still
  /// attached: set `removedOnCompletion` to false).
  case forwards
  /// The value at the start shows before the active interval.
  case backwards
  /// Both `forwards` and `backwards`.
  case both
}
