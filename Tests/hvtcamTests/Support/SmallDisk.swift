import Foundation
import MediaInspection

/// A tmpfs of a given size mounted on a fresh folder, for tests of a full disk: the real file system
/// answers `ENOSPC`. Needs root (the suite runs as root, as CI does).
struct SmallDisk {
  /// Where it is mounted.
  let directory: TemporaryDirectory

  /// Mounts a tmpfs of `kilobytes` on a new temporary folder, read-only when asked.
  init(kilobytes: Int, readOnly: Bool = false) async throws {
    directory = try TemporaryDirectory()
    let options = "size=\(kilobytes)k" + (readOnly ? ",ro" : "")
    let result = try await Subprocess.run(tool: "mount", ["-t", "tmpfs", "-o", options, "tmpfs", directory.url.path])
    guard result.succeeded else {
      directory.remove()
      throw TestFailure("cannot mount a tmpfs (the disk tests need root): \(result)")
    }
  }

  /// Fills the rest of the disk with one file.
  func fill() throws {
    let filler = directory.path("filler")
    guard FileManager.default.createFile(atPath: filler, contents: nil) else {
      throw TestFailure("cannot create \(filler)")
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
    defer { try? handle.close() }
    let block = Data(count: 4096)
    do {
      while true { try handle.write(contentsOf: block) }
    } catch {
      // ENOSPC: the disk is full.
    }
  }

  /// Unmounts the disk and removes its folder.
  func remove() async {
    _ = try? await Subprocess.run(tool: "umount", [directory.url.path])
    directory.remove()
  }
}
