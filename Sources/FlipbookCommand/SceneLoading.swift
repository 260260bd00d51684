import Flipbook

/// Loads the scene a command names, turning reading problems into a work failure (exit 1).
func loadScene(_ path: String) throws -> Scene {
  do {
    return try SceneFormat.load(contentsOf: path)
  } catch {
    throw CommandFailure(message: error.description)
  }
}

/// Runs `body`, turning library errors into a work failure naming `file`.
func failing<R>(_ file: String, _ body: () throws -> R) throws -> R {
  do {
    return try body()
  } catch let failure as CommandFailure {
    throw failure
  } catch let error as FileError {
    throw CommandFailure(message: error.description)
  } catch let error as SceneFormat.DecodingError {
    throw CommandFailure(message: error.description)  // it names the file on every line already
  } catch {
    throw CommandFailure(message: "\(file): \(error)")
  }
}
