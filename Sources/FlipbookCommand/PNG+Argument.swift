import ArgumentParser
import Flipbook

extension PNG.Compression: ExpressibleByArgument {}
