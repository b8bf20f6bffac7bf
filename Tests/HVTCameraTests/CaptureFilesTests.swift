import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Capture files' names and folders: what a failed or discarded capture leaves behind (nothing), and the
/// file being read, which is never a capture's destination.
@Suite("Capture files")
struct CaptureFilesTests {
  @Test("a discarded reservation under a deep new path removes the folders it made, and only those")
  func discardRemovesMadeFolders() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let root = directory.url
    try FileManager.default.createDirectory(at: root.appendingPathComponent("kept"), withIntermediateDirectories: true)
    let final = root.appendingPathComponent("kept/a/b/c/movie.mp4")
    let reservation = try CaptureFiles.reserve(final, movie: true, replacing: false)
    #expect(FileManager.default.fileExists(atPath: reservation.partial.path))
    reservation.discard()
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["kept"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("kept").path) == [])
  }

  @Test("a reservation that fails once its folders are made (a name too long) leaves none of them")
  func failedReservationRemovesMadeFolders() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let root = directory.url
    let final = root.appendingPathComponent("a/b/\(String(repeating: "n", count: 300)).mp4")
    #expect(throws: HVTCameraError.self) { try CaptureFiles.reserve(final, movie: true, replacing: false) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == [])
  }

  @Test("the file being read is never the destination, by name, through a link, or with replacing")
  func inputIsNeverReplaced() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let root = directory.url
    let input = root.appendingPathComponent("input.mp4")
    try Data("movie".utf8).write(to: input)
    let symbolic = root.appendingPathComponent("symbolic.mp4")
    try FileManager.default.createSymbolicLink(at: symbolic, withDestinationURL: input)
    for name in [input, symbolic, root.appendingPathComponent("./input.mp4")] {
      #expect(throws: HVTCameraError.self) {
        try CaptureFiles.reserve(name, movie: false, replacing: true, input: input)
      }
    }
    #expect(try Data(contentsOf: input) == Data("movie".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["input.mp4", "symbolic.mp4"])
  }
}
