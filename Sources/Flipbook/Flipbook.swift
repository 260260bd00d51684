// The umbrella module: `import Flipbook` brings in the whole public API.
@_exported import Animations
@_exported import CairoCanvas
@_exported import Geometry
@_exported import LayerTree
@_exported import Rendering
@_exported import SceneFiles
@_exported import LottieFiles
@_exported import Scenes
@_exported import ImageEncoding
@_exported import Dynamics
@_exported import FileIO
