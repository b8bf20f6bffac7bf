import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The thumbnail delivered with each photo and movie (`.thumbnail`): a JPEG of the right size, read and
/// decoded by GStreamer's own tools in another process, showing what the capture shows.
@Suite("Thumbnails", .timeLimit(.minutes(2)))
struct ThumbnailTests {
  @Test("a thumbnail keeps the frame's aspect ratio with even sides, and is never larger than the frame")
  func sizes() {
    #expect(Thumbnail.size(width: 640, height: 480, maximumDimension: 320) == HVTFrameSize(width: 320, height: 240))
    #expect(Thumbnail.size(width: 1920, height: 1080, maximumDimension: 320) == HVTFrameSize(width: 320, height: 180))
    #expect(Thumbnail.size(width: 480, height: 640, maximumDimension: 100) == HVTFrameSize(width: 76, height: 100))
    #expect(Thumbnail.size(width: 100, height: 50, maximumDimension: 320) == HVTFrameSize(width: 100, height: 50))
  }

  @Test("thumbnailMaximumDimension is clamped to 16…1920")
  func limits() throws {
    let controller = try HVTCameraController(source: .simulated)
    #expect(controller.thumbnailMaximumDimension == 320)
    controller.thumbnailMaximumDimension = 1
    #expect(controller.thumbnailMaximumDimension == 16)
    controller.thumbnailMaximumDimension = 10_000
    #expect(controller.thumbnailMaximumDimension == 1920)
  }

  /// Writes a thumbnail to a file in `directory` and checks that gst-discoverer reads a JPEG of its size;
  /// returns its mean luma, decoded by `jpegdec`.
  func inspect(_ thumbnail: HVTImage, named name: String, in directory: URL) async throws -> Double {
    let url = directory.appendingPathComponent(name)
    try thumbnail.jpegData.write(to: url)
    let discovery = try await MediaInspector.discover(url.path)
    #expect(discovery.isJPEG && discovery.size == "\(thumbnail.width)x\(thumbnail.height)", "\(discovery)")
    return try await MediaInspector.meanLuma(ofJPEG: url.path)
  }

  @Test("a photo's thumbnail is a 320x240 JPEG of the photo; a smaller maximum gives a smaller one")
  func photo() async throws {
    let camera = try TestCamera()
    camera.controller.takePicture()
    let capture = try await camera.delegate.nextCapture(.image)
    let thumbnail = try #require(capture.info[.thumbnail] as? HVTImage)
    #expect(thumbnail.width == 320 && thumbnail.height == 240)
    let luma = try await inspect(thumbnail, named: "thumbnail.jpg", in: camera.directory)
    let photoLuma = try await MediaInspector.meanLuma(ofJPEG: try capture.imageURL.path)
    #expect(abs(luma - photoLuma) < 0.03, "thumbnail \(luma), photo \(photoLuma)")

    camera.controller.thumbnailMaximumDimension = 100
    camera.controller.takePicture()
    let small = try #require(try await camera.delegate.nextCapture(.image).info[.thumbnail] as? HVTImage)
    #expect(small.width == 100 && small.height == 76)
    _ = try await inspect(small, named: "small.jpg", in: camera.directory)
  }

  @Test("a movie's thumbnail is a JPEG of its first frame, delivered with the movie")
  func movie() async throws {
    let camera = try TestCamera(mode: .video)
    camera.controller.videoMaximumDuration = 1
    try await camera.startRecording()
    let movie = try await camera.delegate.nextCapture(.movie)
    let thumbnail = try #require(movie.info[.thumbnail] as? HVTImage)
    #expect(thumbnail.width == 320 && thumbnail.height == 240)
    let luma = try await inspect(thumbnail, named: "movie-thumbnail.jpg", in: camera.directory)
    // The simulated camera shows the same test pattern in every frame: a photo of it has the same light.
    camera.controller.cameraCaptureMode = .photo
    camera.controller.takePicture()
    let photoLuma = try await MediaInspector.meanLuma(
      ofJPEG: try await camera.delegate.nextCapture(.image).imageURL.path)
    #expect(abs(luma - photoLuma) < 0.03, "thumbnail \(luma), photo \(photoLuma)")
  }
}
