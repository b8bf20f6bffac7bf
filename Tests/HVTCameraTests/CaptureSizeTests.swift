import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// Sizes off the qualities' list (``HVTCameraController/videoSize``) and photos larger than the movies
/// (``HVTCameraController/photoSize``), read back by gst-discoverer and by decoding with FFmpeg.
@Suite("Capture sizes", .timeLimit(.minutes(2)))
struct CaptureSizeTests {
  @Test("command-line sizes: WIDTHxHEIGHT within 16x16…7680x4320, or largest")
  func commandLineNames() {
    #expect(HVTCaptureSize(commandLineName: "1000x700") == .size(HVTFrameSize(width: 1000, height: 700)))
    #expect(HVTCaptureSize(commandLineName: "largest") == .largest)
    for bad in ["100x5", "8000x100", "640", "x480", "640x", "640x480x2", "-640x480", "big"] {
      #expect(HVTCaptureSize(commandLineName: bad) == nil, "\(bad)")
    }
  }

  @Test("videoSize 1000x700: photos and movies at that size, which the metadata says was asked for and used")
  func anySize() async throws {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.videoSize = .size(HVTFrameSize(width: 1000, height: 700))
    camera.controller.capturesAudio = false
    try await camera.controller.presentAndWait()
    let photo = try await camera.controller.capturePhoto()
    #expect(try await MediaInspector.discover(photo.url.path).size == "1000x700")
    let movie = try await camera.controller.recordMovie(maximumDuration: 0.5)
    #expect(try await MediaInspector.discover(movie.url.path).size == "1000x700")
    for metadata in [photo.metadata, movie.metadata] {
      #expect(metadata.configuration.size == HVTFrameSize(width: 1000, height: 700), "\(metadata.configuration)")
      #expect(!metadata.configuration.qualityFellBack, "\(metadata.configuration)")
    }
  }

  @Test(
    "photoSize 1280x720 while recording 640x480: the photo is the camera's whole frame, the movie the middle 4:3 of it, scaled"
  )
  func photosLargerThanMovies() async throws {
    let camera = try TestCamera(quality: .type640x480, mode: .video, present: false)
    camera.controller.photoSize = .size(HVTFrameSize(width: 1280, height: 720))
    camera.controller.capturesAudio = false
    try await camera.controller.presentAndWait()
    try await camera.startRecording()
    let photo = try await camera.controller.capturePhoto()
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    #expect(try await MediaInspector.discover(photo.url.path).size == "1280x720")
    let moviePath = try movie.movieURL.path
    #expect(try await MediaInspector.discover(moviePath).size == "640x480")
    #expect(photo.metadata.configuration.size == HVTFrameSize(width: 1280, height: 720))
    let movieMetadata = try movie.metadata
    #expect(movieMetadata.configuration.size == HVTFrameSize(width: 640, height: 480), "\(movieMetadata)")
    #expect(!movieMetadata.configuration.qualityFellBack && !photo.metadata.configuration.qualityFellBack)
    // The SMPTE bars, seven across the camera's 1280: the 4:3 middle (x 160…1120) begins inside the
    // first bar (white, to x 183) and ends inside the last (blue, from x 1097). Squeezed instead of
    // cropped, the movie would show the whole first and last bars, 91 pixels wide each.
    let frame = try await RGBImage.decode(moviePath, width: 640, height: 480)
    let row = 100
    #expect(frame.colourName(5, row) == "white" && frame.colourName(20, row) == "yellow", "\(frame.pixel(20, row))")
    #expect(frame.colourName(620, row) == "red" && frame.colourName(636, row) == "blue", "\(frame.pixel(620, row))")
    let whole = try await RGBImage.decode(photo.url.path, width: 1280, height: 720)
    #expect(whole.barNames() == RGBImage.smpteBars, "\(whole.barNames())")
    #expect(movie.info[.thumbnail].map { ($0 as? HVTImage)?.width == 320 } ?? false)
  }
}
