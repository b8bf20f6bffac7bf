import Foundation
import HVTSupport

/// Where camera control values are kept between runs: one JSON file, the values per camera ID
/// (``HVTCameraDeviceInfo/uniqueID``). `{"version": 1, "cameras": {"v4l2:usb-0000:00:14.0-6": {"brightness":
/// 140}}}`.
///
/// Many processes may keep values at once (two `hvtcam controls` in a row of a script, an app and the
/// command line): a change is read, made and written while the store holds an exclusive lock (`flock(2)` on
/// `controls.json.lock` beside the file), and the file is written whole to a temporary file that is then
/// renamed over the old one (`rename(2)`), so that no change is lost and no reader sees half a file. A
/// file that is not a controls file (a folder, unreadable, not its JSON) is never replaced: the change
/// fails, naming the path and what is wrong.
public struct HVTCameraSettingsStore: Sendable, Hashable {
  /// The file.
  public var url: URL

  /// How long a change waits for another process's change to finish before it fails.
  static let lockTimeout: Duration = .seconds(5)

  /// A store in the file at `url` (which need not exist yet).
  public init(url: URL) {
    self.url = url
  }

  /// `$XDG_CONFIG_HOME/hvtcam/controls.json` (`~/.config/hvtcam/controls.json` without it), beside the
  /// user's presets.
  public static var standard: HVTCameraSettingsStore {
    HVTCameraSettingsStore(
      url: HVTPreset.userDirectory.deletingLastPathComponent().appendingPathComponent("controls.json"))
  }

  /// The values kept for `camera`, by control name; empty when there are none. A file that cannot be read
  /// counts as none, with a warning in the `hvtcamera` log.
  public func values(for camera: String) -> [String: Int64] {
    do {
      return try document()[camera] ?? [:]
    } catch {
      debugLog.log(.warning, "camera controls kept in \(url.path) not applied: \(error)")
      return [:]
    }
  }

  /// Keeps `value` for control `name` of `camera`.
  func keep(_ value: Int64, for name: String, camera: String) throws(HVTCameraError) {
    try change { $0[camera, default: [:]][name] = value }
  }

  /// Forgets every value kept for `camera`.
  func forget(camera: String) throws(HVTCameraError) {
    try change { $0.removeValue(forKey: camera) }
  }

  private struct Document: Codable {
    var version = 1
    var cameras: [String: [String: Int64]]
  }

  /// Reads the file, applies `edit` and writes the file back if anything changed, all under the lock.
  private func change(_ edit: (inout [String: [String: Int64]]) -> Void) throws(HVTCameraError) {
    let directory = url.deletingLastPathComponent()
    do {
      try CaptureFiles.makeDirectory(directory)
    } catch {
      throw HVTCameraError(error)
    }
    let lock = try SettingsFileLock(locking: url.appendingPathExtension("lock"), timeout: Self.lockTimeout)
    defer { lock.release() }
    var cameras = try document()
    let before = cameras
    edit(&cameras)
    guard cameras != before else { return }
    try write(cameras)
  }

  /// The file's cameras: none when there is no file; an error naming the path when it cannot be read or
  /// is not a controls file. Wraps `open(2)`, `fstat(2)` and `read(2)`.
  private func document() throws(HVTCameraError) -> [String: [String: Int64]] {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return [:] }
      throw .fileReadFailed(path: url.path, reason: SystemCallError.reason())
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .fileReadFailed(path: url.path, reason: SystemCallError.reason()) }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .fileReadFailed(
        path: url.path, reason: "not a file (a folder or a device): the controls file must be a file")
    }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .fileReadFailed(path: url.path, reason: SystemCallError.reason())
      }
      if count == 0 { break }
      data.append(contentsOf: chunk[..<count])
    }
    if data.isEmpty { return [:] }
    do {
      return try JSONDecoder().decode(Document.self, from: data).cameras
    } catch {
      throw .fileReadFailed(
        path: url.path, reason: "not a controls file HVTCamera can read (\(error)); it is left as it is")
    }
  }

  /// Writes `cameras` to a new temporary file beside the file, then renames it over the file. Wraps
  /// `mkstemp(3)`, `write(2)`, `fsync(2)` and `rename(2)`.
  private func write(_ cameras: [String: [String: Int64]]) throws(HVTCameraError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(Document(cameras: cameras))
    } catch {
      throw .fileWriteFailed(path: url.path, reason: "\(error)")
    }
    var template = Array("\(url.path).XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { throw .fileWriteFailed(path: url.path, reason: SystemCallError.reason()) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var failed = writeAll(data, to: fd)
    if failed == 0, fchmod(fd, 0o644) != 0 || fsync(fd) != 0 { failed = errno }
    if close(fd) != 0, failed == 0 { failed = errno }
    if failed == 0, rename(temporary, url.path) != 0 { failed = errno }
    guard failed == 0 else {
      unlink(temporary)
      throw .fileWriteFailed(path: url.path, reason: SystemCallError.reason(failed))
    }
  }
}

/// An exclusive `flock(2)` on a lock file of its own, beside the file it guards (the guarded file is
/// replaced by `rename(2)`, which a lock on the file itself would not survive).
private struct SettingsFileLock {
  private let fd: Int32

  /// Takes the lock on `url` (made when missing), waiting for another holder at most `timeout`. Wraps
  /// `open(2)` and `flock(2)` with `LOCK_NB`, tried again every 2 ms.
  init(locking url: URL, timeout: Duration) throws(HVTCameraError) {
    fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .fileWriteFailed(path: url.path, reason: SystemCallError.reason()) }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR, clock.now < deadline else {
        close(fd)
        throw .fileWriteFailed(
          path: url.path,
          reason: code == EWOULDBLOCK
            ? "another process has held the lock for \(timeout); try again" : SystemCallError.reason(code))
      }
      usleep(2000)
    }
  }

  /// Gives the lock up and closes the lock file.
  func release() {
    flock(fd, LOCK_UN)
    close(fd)
  }
}
