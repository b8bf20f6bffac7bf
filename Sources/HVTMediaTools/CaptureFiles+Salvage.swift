import HVTCameraCore
import CFiles
import Foundation

extension CaptureFiles.Reservation {
  /// Puts the partial file back when it was unlinked while this process still has it open — its folder
  /// was removed (or the file deleted) during a recording, while the file sink kept writing to it: the
  /// folder is made again and what the open file holds is copied to the partial name. Does nothing when
  /// the partial file is there, or when no open descriptor of it is left. Reads the descriptor through
  /// `/proc/self/fd`, where an unlinked file's link reads `<path> (deleted)`.
  func restoreUnlinkedPartial() throws {
    var info = stat()
    guard lstat(partial.path, &info) != 0, errno == ENOENT, let source = openUnlinkedPartial() else { return }
    defer { close(source) }
    try CaptureFiles.makeDirectory(partial.deletingLastPathComponent())
    guard hvt_create_exclusive(partial.path) == 0 else { throw CaptureFiles.failure(writing: final) }
    let destination = open(partial.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard destination >= 0 else { throw CaptureFiles.failure(writing: final) }
    defer { close(destination) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if count == 0 { return }
      if count < 0 {
        if errno == EINTR { continue }
        throw CaptureFiles.failure(writing: final)
      }
      var offset = 0
      while offset < count {
        let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + offset, count - offset) }
        if written < 0 {
          if errno == EINTR { continue }
          let code = errno
          unlink(partial.path)
          errno = code
          throw CaptureFiles.failure(writing: final)
        }
        offset += written
      }
    }
  }

  /// A new descriptor, reading from the start, of this process's open but unlinked partial file.
  private func openUnlinkedPartial() -> Int32? {
    let folder = "/proc/self/fd"
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
    let unlinked = "\(partial.path) (deleted)"
    for entry in entries {
      let link = "\(folder)/\(entry)"
      guard (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == unlinked else { continue }
      let descriptor = open(link, O_RDONLY | O_CLOEXEC)
      if descriptor >= 0 { return descriptor }
    }
    return nil
  }
}
