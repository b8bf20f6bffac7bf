import Foundation
import HVTCamera

/// Where a command puts its files: `-o PATH` names the file (or, for several, the names `stem-N.ext`),
/// or, when it is an existing folder or ends in `/`, the folder for generated names; without `-o`, the
/// current folder. The library creates each file exclusively, so none of these replaces anything unless
/// `--overwrite` is given.
struct OutputPath {
  /// Where generated names go.
  let directory: URL
  /// The file the user named, if any.
  private let file: URL?

  /// `path` as given to `-o`; with `directoryOnly`, always a folder (created when missing).
  init(_ path: String?, directoryOnly: Bool = false) {
    guard let path else {
      directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
      file = nil
      return
    }
    var isDirectory: ObjCBool = false
    let url = URL(fileURLWithPath: path)
    if directoryOnly || path.hasSuffix("/")
      || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    {
      directory = url
      file = nil
    } else {
      directory = url.deletingLastPathComponent()
      file = url
    }
  }

  /// The name for the `index`-th of `count` captures: the named file, `stem-index.ext` when there are
  /// several, or `nil` for a generated name in ``directory``.
  func url(index: Int, count: Int) -> URL? {
    guard let file, count > 1 else { return file }
    let stem = file.deletingPathExtension().lastPathComponent
    let numbered = file.pathExtension.isEmpty ? "\(stem)-\(index)" : "\(stem)-\(index).\(file.pathExtension)"
    return file.deletingLastPathComponent().appendingPathComponent(numbered)
  }
}
