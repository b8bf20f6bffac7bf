import Foundation
import Synchronization

/// Names and writes capture files: unique names in the output directory, written under a partial name
/// and renamed when complete, so a file under its final name is always whole.
enum CaptureFiles {
  /// A writable folder of this process's own, used when the app sets no `outputDirectory`.
  static let defaultDirectory: URL = FileManager.default.temporaryDirectory
    .appendingPathComponent("hvtcamera-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)

  private static let counter = Mutex(0)

  /// A file about to be written: the partial name it is written under and the final name it gets.
  struct Reservation: Sendable {
    /// Where the data goes while being written. Movies keep their extension so that a player opens
    /// what a crash left behind (`MOV_….partial.mp4`); photos are hidden (`.IMG_….jpg.partial`).
    let partial: URL
    /// Where the complete file ends up.
    let final: URL

    /// Renames the partial file to its final name. Wraps `rename(2)`.
    func complete() throws {
      guard rename(partial.path, final.path) == 0 else {
        throw HVTCameraError.fileWriteFailed(path: final.path, reason: String(cString: strerror(errno)))
      }
    }
  }

  /// Reserves a unique name in `directory` (created if missing): `IMG_20261130-221503_0001.jpg`.
  static func reserve(in directory: URL, prefix: String, extension ext: String, movie: Bool) throws -> Reservation {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw HVTCameraError.fileWriteFailed(path: directory.path, reason: error.localizedDescription)
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let stamp = formatter.string(from: Date())
    while true {
      let number = counter.withLock { value in
        value += 1
        return value
      }
      let stem = "\(prefix)_\(stamp)_\(String(format: "%04d", number))"
      let final = directory.appendingPathComponent("\(stem).\(ext)")
      let partial = directory.appendingPathComponent(movie ? "\(stem).partial.\(ext)" : ".\(stem).\(ext).partial")
      if !FileManager.default.fileExists(atPath: final.path), !FileManager.default.fileExists(atPath: partial.path) {
        return Reservation(partial: partial, final: final)
      }
    }
  }

  /// Writes `data` under the partial name, then renames it to the final name.
  static func write(_ data: Data, to reservation: Reservation) throws {
    do {
      try data.write(to: reservation.partial)
    } catch {
      throw HVTCameraError.fileWriteFailed(path: reservation.partial.path, reason: error.localizedDescription)
    }
    try reservation.complete()
  }

  /// The size of a file in bytes, or 0.
  static func size(of url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
  }
}
