import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

@Suite("Built-in presets", .timeLimit(.minutes(2)))
struct PresetTests {
  static let builtIns = ["default", "low-latency-720p", "archival", "mjpeg-camera", "webm-vp8", "hardware-h264"]

  @Test("the built-ins are listed, with their descriptions")
  func listing() throws {
    let listed = HVTPreset.available().filter { $0.origin == .builtIn }
    #expect(Set(listed.map(\.name)) == Set(Self.builtIns))
    #expect(listed.allSatisfy { !$0.summary.isEmpty && !$0.summary.hasPrefix("unreadable") })
  }

  @Test("each built-in photographs and records on the simulated camera", arguments: builtIns)
  func capture(name: String) async throws {
    let preset = try HVTPreset.named(name)
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = preset
    #expect(camera.controller.videoQuality == preset.quality)
    camera.controller.videoQuality = .type640x480
    camera.controller.videoMaximumDuration = 1
    try await camera.controller.presentAndWait()
    #expect(camera.controller.configuration?.preset == name)
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    let photoReport = try await MediaInspector.discover(try photo.imageURL.path)
    #expect(photoReport.isJPEG && photoReport.size == "640x480")
    #expect(try photo.imageURL.pathExtension == preset.photoExtension)
    try await camera.startRecording()
    let movie = try await camera.delegate.nextCapture(.movie)
    let url = try movie.movieURL
    #expect(url.pathExtension == preset.movieExtension)
    let report = try await MediaInspector.discover(url.path)
    #expect(!report.failed && report.size == "640x480", "\(report)")
    #expect(abs((report.duration ?? 0) - 1) <= 1.0 / 30 + 0.001, "\(report.duration ?? -1) s")
    let metadata = try movie.metadata
    switch name {
    case "webm-vp8":
      #expect(report.codec?.contains("VP8") == true, "\(report)")
      #expect(metadata.encoder == "vp8enc" && metadata.muxer == "webmmux")
    case "archival":
      #expect(report.isH264 && metadata.muxer == "matroskamux")
    case "hardware-h264":
      // No hardware encoder on this machine: the first installed candidate is x264enc.
      #expect(report.isH264 && metadata.encoder == (preset.movieEncoder.installed?.factory ?? ""))
    default:
      #expect(report.isH264 && metadata.encoder == "x264enc")
    }
    if name == "mjpeg-camera" {
      let model = try camera.controller.pipelineModel()
      #expect(model.configuration.sourceFormat == "MJPEG")
      #expect(model.source.contains { $0.factory == "jpegdec" })
      #expect(model.source.contains { $0.value(of: "caps")?.hasPrefix("image/jpeg") == true })
    }
    await camera.controller.dismissAndWait()
  }

  @Test("a preset can name its own source and filters")
  func sourceAndFilters() async throws {
    let preset = try HVTPreset.parse(
      """
      {
        "name": "flipped", "description": "test", "quality": "640x480",
        "source": "videotestsrc is-live=true pattern=ball",
        "filters": ["videoflip method=horizontal-flip"],
        "preview": "fakesink sync=false",
        "photo": { "encoder": "jpegenc", "extension": "jpeg" },
        "movie": { "encoder": ["nvh264enc", "openh264enc"], "muxer": "mp4mux fragment-duration=500", "extension": "mp4" }
      }
      """)
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = preset
    camera.controller.videoMaximumDuration = 1
    try await camera.controller.presentAndWait()
    let model = try camera.controller.pipelineModel()
    #expect(model.source[0].value(of: "pattern") == "ball")
    #expect(model.source.contains { $0.factory == "videoflip" && $0.name == "filter-0" })
    camera.controller.takePicture()
    #expect(try await camera.delegate.nextCapture(.image).imageURL.pathExtension == "jpeg")
    try await camera.startRecording()
    let movie = try await camera.delegate.nextCapture(.movie)
    // Without x264enc in the list, OpenH264 records: a machine without x264 still records.
    #expect(try movie.metadata.encoder == "openh264enc")
    #expect(try await MediaInspector.discover(movie.movieURL.path).isH264)
    await camera.controller.dismissAndWait()
  }
}
