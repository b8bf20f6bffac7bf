import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Which files of an HLS folder are the engine's (``HLSFolder``), and what it does with a folder it is
/// given, on a real file system.
struct HLSFolderClaimTests {
  @Test("the marker, the playlist, segmentNNNNN.ts and GLib's temporary playlist are its own; nothing else")
  func ownNames() {
    for name in [".hvtcam-hls", "playlist.m3u8", "segment00000.ts", "segment123456.ts", ".goutputstream-AB12CD"] {
      #expect(HLSFolder.isOwn(name), "\(name)")
    }
    for name in ["segment0000.ts", "segment0000a.ts", "segment00000.mp4", "index.html", "Playlist.m3u8", "x.ts"] {
      #expect(!HLSFolder.isOwn(name), "\(name)")
    }
  }

  @Test("a missing folder is made, an empty one taken, a marked one emptied of its own files; others refused")
  func claim() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let root = directory.url
    let folder = root.appendingPathComponent("a/b")
    try HLSFolder.claim(folder)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [HLSFolder.markerName])
    for name in ["playlist.m3u8", "segment00007.ts"] {
      _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
    }
    try HLSFolder.claim(folder)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [HLSFolder.markerName])
    // Unmarked, a folder of the same names is someone else's.
    try FileManager.default.removeItem(at: folder.appendingPathComponent(HLSFolder.markerName))
    _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("playlist.m3u8").path, contents: Data())
    #expect(throws: HLSFolderError.self) { try HLSFolder.claim(folder) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["playlist.m3u8"])
    let file = root.appendingPathComponent("a/file")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data())
    #expect(throws: HLSFolderError.self) { try HLSFolder.claim(file) }
  }
}
