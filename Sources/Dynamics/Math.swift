import Glibc

@usableFromInline func sin(_ x: Double) -> Double { Glibc.sin(x) }
@usableFromInline func cos(_ x: Double) -> Double { Glibc.cos(x) }
@usableFromInline func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
