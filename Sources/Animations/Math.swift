import Glibc

// The C math functions this module uses, under Swift names (no Foundation).
@usableFromInline func sin(_ x: Double) -> Double { Glibc.sin(x) }
@usableFromInline func cos(_ x: Double) -> Double { Glibc.cos(x) }
@usableFromInline func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
@usableFromInline func asin(_ x: Double) -> Double { Glibc.asin(x) }
@usableFromInline func acos(_ x: Double) -> Double { Glibc.acos(x) }
@usableFromInline func exp(_ x: Double) -> Double { Glibc.exp(x) }
@usableFromInline func cosh(_ x: Double) -> Double { Glibc.cosh(x) }
@usableFromInline func sinh(_ x: Double) -> Double { Glibc.sinh(x) }
@usableFromInline func log(_ x: Double) -> Double { Glibc.log(x) }
