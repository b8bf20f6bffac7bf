import Foundation
import HVTCamera

/// Where a command puts its files: `-o PATH` names the file (or, for several, the pattern `stem-N.ext`),
/// or a directory for generated names; without `-o`, the current directory.
struct OutputPath {
  let directory: URL
  private let file: URL?

  init(_ path: String?) {
    guard let path else {
      directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
      file = nil
      return
    }
    var isDirectory: ObjCBool = false
    let url = URL(fileURLWithPath: path)
    if path.hasSuffix("/")
      || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    {
      directory = url
      file = nil
    } else {
      directory = url.deletingLastPathComponent()
      file = url
    }
  }

  /// Moves a delivered capture to its place (the `index`-th of `count`) and returns the path it ended at.
  func place(_ delivered: URL, index: Int, count: Int) throws -> URL {
    guard let file else { return delivered }
    let stem = file.deletingPathExtension().lastPathComponent
    let numbered = file.pathExtension.isEmpty ? "\(stem)-\(index)" : "\(stem)-\(index).\(file.pathExtension)"
    let target = count == 1 ? file : file.deletingLastPathComponent().appendingPathComponent(numbered)
    guard rename(delivered.path, target.path) == 0 else {
      throw HVTCameraError.fileWriteFailed(path: target.path, reason: String(cString: strerror(errno)))
    }
    return target
  }
}
