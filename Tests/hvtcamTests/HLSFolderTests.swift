import Foundation
import MediaInspection
import Testing

/// `hvtcam stream --hls` writes only what it owns: a new or empty folder, or one an earlier stream of its
/// own wrote; never a file of anyone else's.
@Suite(
  "hvtcam stream --hls: the folder", .serialized, .timeLimit(.minutes(3)),
  .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed"))
struct HLSFolderTests {
  /// A preset streaming HLS into `folder` in segments of 1 s, the playlist listing 3.
  static func preset(into folder: String, in directory: TemporaryDirectory) throws -> String {
    let path = directory.path("short-hls.json")
    try """
    {
      "name": "short-hls", "description": "short HLS segments", "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc", "extension": "jpg" },
      "movie": { "encoder": "x264enc speed-preset=superfast tune=zerolatency key-int-max=30", "muxer": "mp4mux", "extension": "mp4" },
      "streams": [{ "hls": "\(folder)", "segmentDuration": 1, "playlistLength": 3 }]
    }
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The names in `folder`, sorted.
  static func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  @Test("a folder holding the user's playlist.m3u8 and segment00000.ts is refused at the start, its files untouched")
  func usersFiles() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.path("site")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let mine = ["playlist.m3u8": "#EXTM3U\n# the user's\n", "segment00000.ts": "the user's segment"]
    for (name, text) in mine { try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8) }
    let result = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--hls", folder, "--duration", "5"])
    #expect(
      result.status == 1 && result.standardError.contains("holds files hvtcam did not write ('playlist.m3u8', "),
      "\(result)")
    #expect(try Self.names(in: folder) == mine.keys.sorted())
    for (name, text) in mine { #expect(try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) == text) }
    let empty = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--hls", ""])
    #expect(empty.status == 64 && empty.standardError.contains("--hls needs a folder, not ''"), "\(empty)")
  }

  @Test(
    "a new folder is made and marked; the playlist lists 3 segments and the folder keeps 2 more; a second run replaces the first's files, a third is refused once the user has put a file there"
  )
  func ownFolder() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let folder = directory.path("new/hls")
    let preset = try Self.preset(into: folder, in: directory)
    let first = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--preset", preset, "--duration", "8"])
    #expect(first.succeeded, "\(first)")
    let written = try Self.names(in: folder)
    let segments = written.filter { $0.hasPrefix("segment") }
    #expect(written.contains(".hvtcam-hls") && written.contains("playlist.m3u8"), "\(written)")
    // The 3 listed, the 2 before them, and the one being written when the stream stopped.
    #expect(segments.count == 3 + 2 + 1, "\(written)")
    let playlist = try String(contentsOfFile: "\(folder)/playlist.m3u8", encoding: .utf8)
    let listed = playlist.split(separator: "\n").filter { $0.hasPrefix("segment") }.map(String.init)
    #expect(listed == Array(segments.dropLast().suffix(3)), "\(playlist)")

    // A shorter second run: its own segments only, the first run's older ones gone.
    let second = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--preset", preset, "--duration", "3"])
    #expect(second.succeeded, "\(second)")
    let rewritten = try Self.names(in: folder).filter { $0.hasPrefix("segment") }
    #expect(rewritten.allSatisfy { $0 < "segment00005.ts" } && !rewritten.isEmpty, "\(rewritten)")
    #expect(try await StreamCommandTests.probe("\(folder)/playlist.m3u8") == "h264,640,480")

    try "notes".write(toFile: "\(folder)/notes.txt", atomically: true, encoding: .utf8)
    let third = try await HVTCam.run(["stream"] + HVTCam.simulated + ["--preset", preset, "--duration", "3"])
    #expect(third.status == 1 && third.standardError.contains("did not write ('notes.txt')"), "\(third)")
    #expect(try Self.names(in: folder).contains("notes.txt") && Self.names(in: folder).count == rewritten.count + 3)
  }
}
