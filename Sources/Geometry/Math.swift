#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The C math library, re-exported under Swift names for this module only. Geometry stays free of
// Foundation; these are the few functions it needs.
@usableFromInline func sin(_ x: Double) -> Double { Glibc.sin(x) }
@usableFromInline func cos(_ x: Double) -> Double { Glibc.cos(x) }
@usableFromInline func tan(_ x: Double) -> Double { Glibc.tan(x) }
@usableFromInline func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
@usableFromInline func acos(_ x: Double) -> Double { Glibc.acos(x) }
@usableFromInline func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
@usableFromInline func hypot(_ x: Double, _ y: Double) -> Double { Glibc.hypot(x, y) }
