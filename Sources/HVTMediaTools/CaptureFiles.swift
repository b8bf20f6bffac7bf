import HVTCameraCore
import CFiles
import Foundation
import HVTSupport

/// Names and writes capture files without ever replacing what is there.
///
/// A capture is written under a partial name created exclusively (`O_EXCL`), and renamed to its final
/// name only when complete, with `renameat2(RENAME_NOREPLACE)`: a file under its final name is always
/// whole, and an existing file, symbolic link or device node is never replaced — unless the caller asked
/// for a chosen name to replace an existing *regular* file.
package enum CaptureFiles {
  /// A writable folder of this process's own, used when the app sets no `outputDirectory`.
  package static let defaultDirectory: URL = FileManager.default.temporaryDirectory
    .appendingPathComponent("hvtcamera-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)

  private static let counter = Locked(0)

  /// How a reservation got its final name, which decides what happens when that name is taken.
  enum Naming: Sendable {
    /// A generated name (`IMG_…_0001.jpg`): if another process took it meanwhile, the next free number.
    case automatic(directory: URL, stem: String, extension: String)
    /// The caller's name: taken is an error, unless `replacing` and it is a regular file.
    case chosen(replacing: Bool)
  }

  /// A file about to be written: the partial name it is written under and the final name it gets.
  package struct Reservation: Sendable {
    /// Where the data goes while being written, created empty by the reservation. Movies keep their
    /// extension so that a player opens what a crash left behind (`MOV_….partial.mp4`,
    /// `name.partial.mp4`); photos are hidden (`.IMG_….jpg.partial`).
    package let partial: URL
    /// The name the complete file gets, unless it is taken by then (see ``complete()``).
    package let final: URL
    let naming: Naming
    /// The folders the reservation made for the file, outermost first: removed again by ``discard()``
    /// when they are still empty.
    var madeFolders: [URL] = []

    /// Renames the partial file to its final name and returns where it ended up. Never replaces anything
    /// but a regular file the caller allowed to be replaced; on failure the partial file stays, and the
    /// error names both. A partial file unlinked while still open (its folder removed) is first put back
    /// (``restoreUnlinkedPartial()``). Wraps `renameat2(RENAME_NOREPLACE)`.
    package func complete() throws -> URL {
      try restoreUnlinkedPartial()
      switch naming {
      case .automatic(let directory, let stem, let ext):
        var target = final
        while hvt_rename_noreplace(partial.path, target.path) != 0 {
          guard errno == EEXIST else { throw CaptureFiles.failure(writing: target, keeping: partial) }
          target = directory.appendingPathComponent(CaptureFiles.numbered(stem, CaptureFiles.nextNumber(), ext))
        }
        return target
      case .chosen(let replacing):
        if hvt_rename_noreplace(partial.path, final.path) == 0 { return final }
        guard errno == EEXIST else { throw CaptureFiles.failure(writing: final, keeping: partial) }
        guard replacing else { throw HVTCameraError.fileExists(path: final.path, kept: partial.path) }
        guard CaptureFiles.isRegularFile(final) else {
          throw HVTCameraError.notARegularFile(path: final.path, kept: partial.path)
        }
        guard rename(partial.path, final.path) == 0 else {
          throw CaptureFiles.failure(writing: final, keeping: partial)
        }
        return final
      }
    }

    /// Removes the partial file and the folders made for it (a capture that failed leaves nothing behind).
    package func discard() {
      unlink(partial.path)
      CaptureFiles.removeEmpty(madeFolders)
    }
  }

  /// Reserves a unique generated name in `directory` (created if missing), e.g.
  /// `IMG_20261130-221503_0001.jpg`, unique across processes: numbers whose final or partial name exists
  /// are skipped.
  package static func reserve(in directory: URL, prefix: String, extension ext: String, movie: Bool) throws
    -> Reservation
  {
    try makeDirectory(directory)
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let stem = "\(prefix)_\(formatter.string(from: Date()))"
    while true {
      let final = directory.appendingPathComponent(numbered(stem, nextNumber(), ext))
      guard !exists(final) else { continue }
      let partial = partialName(for: final, movie: movie)
      if hvt_create_exclusive(partial.path) == 0 {
        return Reservation(
          partial: partial, final: final, naming: .automatic(directory: directory, stem: stem, extension: ext))
      }
      guard errno == EEXIST else { throw failure(writing: final) }
    }
  }

  /// Reserves the caller's name `final` (its folder is created if missing). Throws when something is
  /// already there — unless `replacing` and it is a regular file — and when its partial name exists
  /// (another capture is being written to the same name).
  /// `input`, when given, is a file being read for the capture (a movie repaired or trimmed), which is
  /// never replaced, also with `replacing` and under another name (a link to it).
  package static func reserve(_ final: URL, movie: Bool, replacing: Bool, input: URL? = nil) throws -> Reservation {
    if let input, isSameFile(final, input) {
      throw HVTCameraError.fileWriteFailed(
        path: final.path, reason: "it is the file being read (\(input.path)), which is always kept; choose another name"
      )
    }
    let made = try makeDirectory(final.deletingLastPathComponent())
    do {
      if exists(final) {
        guard replacing else { throw HVTCameraError.fileExists(path: final.path, kept: nil) }
        guard isRegularFile(final) else { throw HVTCameraError.notARegularFile(path: final.path, kept: nil) }
      }
      let partial = partialName(for: final, movie: movie)
      guard hvt_create_exclusive(partial.path) == 0 else {
        if errno == EEXIST { throw HVTCameraError.fileInUse(path: final.path, partial: partial.path) }
        throw failure(writing: final)
      }
      return Reservation(partial: partial, final: final, naming: .chosen(replacing: replacing), madeFolders: made)
    } catch {
      removeEmpty(made)
      throw error
    }
  }

  /// Whether `a` and `b` are one file (the same device and inode, whatever the names and links). Wraps
  /// `stat(2)`.
  static func isSameFile(_ a: URL, _ b: URL) -> Bool {
    var first = stat()
    var second = stat()
    return stat(a.path, &first) == 0 && stat(b.path, &second) == 0 && first.st_dev == second.st_dev
      && first.st_ino == second.st_ino
  }

  /// Removes `folders` (outermost first), innermost first, each only if empty. Wraps `rmdir(2)`.
  static func removeEmpty(_ folders: [URL]) {
    for folder in folders.reversed() where rmdir(folder.path) != 0 { return }
  }

  /// Writes `data` under the reservation's partial name, then gives it its final name, which it returns.
  /// On failure nothing is left behind, and the error names the file and the system's reason.
  package static func write(_ data: Data, to reservation: Reservation) throws -> URL {
    do {
      try writeAll(data, to: reservation.partial, naming: reservation.final)
      return try reservation.complete()
    } catch {
      reservation.discard()
      throw error
    }
  }

  /// The size of a file in bytes, or 0.
  package static func size(of url: URL) -> Int {
    var info = stat()
    return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
  }

  /// `name.partial.mp4` for movies (a player opens it); `.name.jpg.partial` for photos (hidden).
  static func partialName(for final: URL, movie: Bool) -> URL {
    let folder = final.deletingLastPathComponent()
    guard movie else { return folder.appendingPathComponent(".\(final.lastPathComponent).partial") }
    let ext = final.pathExtension
    let stem = final.deletingPathExtension().lastPathComponent
    return folder.appendingPathComponent(ext.isEmpty ? "\(stem).partial" : "\(stem).partial.\(ext)")
  }

  private static func numbered(_ stem: String, _ number: Int, _ ext: String) -> String {
    "\(stem)_\(String(format: "%04d", number)).\(ext)"
  }

  private static func nextNumber() -> Int {
    counter.withLock { value in
      value += 1
      return value
    }
  }

  /// Whether anything is at `url`, a dangling symbolic link included. Wraps `lstat(2)`.
  private static func exists(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
  }

  /// Whether `url` is a regular file itself (not a symbolic link to one). Wraps `lstat(2)`.
  private static func isRegularFile(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Creates a folder and its parents (`mkdir(2)`), naming the one that failed and why; returns the
  /// folders it made, outermost first. A failure removes those it made.
  @discardableResult
  package static func makeDirectory(_ url: URL) throws -> [URL] {
    var info = stat()
    if stat(url.path, &info) == 0 {
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        throw HVTCameraError.fileWriteFailed(path: url.path, reason: "not a folder")
      }
      return []
    }
    let parent = url.deletingLastPathComponent()
    let made = parent.path != url.path ? try makeDirectory(parent) : []
    if mkdir(url.path, 0o777) == 0 { return made + [url] }
    guard errno == EEXIST else {
      let error = failure(writing: url)
      removeEmpty(made)
      throw error
    }
    return made
  }

  /// Writes all of `data` to the existing file `url`, truncating it; errors name `final`. Wraps `open(2)`, `write(2)`,
  /// `close(2)`, so that the error is the system's own (`ENOSPC`, `EIO`…).
  private static func writeAll(_ data: Data, to url: URL, naming final: URL) throws {
    let fd = open(url.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    guard fd >= 0 else { throw failure(writing: final) }
    var failed = HVTSupport.writeAll(data, to: fd)
    if close(fd) != 0, failed == 0 { failed = errno }
    guard failed == 0 else {
      errno = failed
      throw failure(writing: final)
    }
  }

  /// The current `errno` as an error about writing `url`, naming the partial file kept, if any.
  static func failure(writing url: URL, keeping partial: URL? = nil) -> HVTCameraError {
    let reason = SystemCallError.reason()
    return .fileWriteFailed(
      path: url.path, reason: partial.map { "\(reason); the capture is kept as \($0.path)" } ?? reason)
  }
}
