import Foundation
import HVTCamera
import HVTSupport

/// The files a command writes itself (a graph, a thumbnail), with the system's own reason when it fails:
/// `could not write PATH: No space left on device (errno 28)`, never a Foundation error code.
enum FileWriting {
  /// Writes `bytes` to `path`. With `replacing`, what is there is replaced; without, an existing file
  /// (or device) is an error and stays as it was, and a file that could not be written whole is removed.
  /// Wraps `open(2)` (`O_EXCL` without `replacing`), `write(2)` and `close(2)`.
  static func write(_ bytes: Data, to path: String, replacing: Bool) throws {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
    let descriptor = open(path, flags, 0o666)
    guard descriptor >= 0 else {
      if errno == EEXIST { throw HVTCameraError.fileExists(path: path, kept: nil) }
      throw HVTCameraError.fileWriteFailed(path: path, reason: SystemCallError.reason())
    }
    var failed = writeAll(bytes, to: descriptor)
    if close(descriptor) != 0, failed == 0 { failed = errno }
    guard failed == 0 else {
      if !replacing { unlink(path) }
      throw HVTCameraError.fileWriteFailed(path: path, reason: SystemCallError.reason(failed))
    }
  }
}
