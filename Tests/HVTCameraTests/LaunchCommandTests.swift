import Foundation
import MediaInspection
import HVTGStreamer
import Testing

@testable import HVTCamera
@testable import HVTCameraInterface
@testable import HVTMediaTools
@testable import HVTCameraCore

@Suite("gst-launch-1.0 rendering")
struct LaunchCommandTests {
  static let nastyValues = [
    "plain.mp4", "with space.mp4", "it's.mp4", "say \"hi\".mp4", "bang ! here.mp4", "a=b.mp4", "naïve ü.mp4",
    "back\\slash.mp4", "$HOME `x` ; rm -rf.mp4", "",
  ]

  @Test("a shell word passes any value through /bin/sh unchanged", arguments: nastyValues)
  func shellRoundTrip(value: String) async throws {
    let output = try await MediaInspector.run("sh", ["-c", "printf '%s' \(LaunchQuoting.shellWord(value))"]).output
    #expect(output == value)
  }

  @Test("plain words stay bare")
  func bareWords() {
    #expect(LaunchQuoting.shellWord("!") == "!")
    #expect(LaunchQuoting.shellWord("is-live=true") == "is-live=true")
    #expect(LaunchQuoting.shellWord("video/x-raw,format=I420,width=640") == "video/x-raw,format=I420,width=640")
    #expect(LaunchQuoting.launchValue("ultrafast") == "ultrafast")
    #expect(LaunchQuoting.launchValue("a b") == "\"a b\"")
    #expect(LaunchQuoting.launchValue("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"")
  }

  @Test("the launch line holds the model's elements, in order")
  func renderedModel() throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.videoQuality = .type1280x720
    let model = try controller.pipelineModel()
    let video = model.launchCommand(mode: .video, output: "/tmp/a b.mp4", frames: 30)
    #expect(video.hasPrefix("gst-launch-1.0 -e videotestsrc name=camera is-live=true pattern=smpte num-buffers=30 !"))
    #expect(video.contains("! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 !"))
    #expect(video.contains("! tee name=t t. ! queue name=preview-queue"))
    #expect(video.contains("x264enc name=movie-encoder"))
    #expect(video.contains("mp4mux name=muxer fragment-duration=500 ! filesink name=file 'location=\"/tmp/a b.mp4\"'"))
    let photo = model.launchCommand(mode: .photo, output: "p.jpg", frames: nil)
    #expect(photo.contains("jpegenc name=photo-encoder quality=90 snapshot=true ! filesink name=file location=p.jpg"))
    #expect(!photo.contains("num-buffers"))
    #expect(!photo.contains("x264enc"))
  }

  @Test(
    "the launch description is the command's pipeline, which gst_parse_launch builds: 30 frames recorded (with a pre-roll, through the encoded tee)",
    arguments: [0.0, 2.0])
  func parsedDescription(preRoll: Double) async throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.videoQuality = .type640x480
    controller.preRollDuration = preRoll
    let model = try controller.pipelineModel()
    #expect((model.preRoll != nil) == (preRoll > 0))
    if preRoll > 0 {
      let lines = model.engineDescription(movie: "m.mp4").split(separator: "\n")
      #expect(
        lines.contains {
          $0.hasPrefix("pre-roll: t. ! queue name=pre-roll-queue")
            && $0.hasSuffix("tee name=encoded allow-not-linked=true")
        }, "\(lines)")
      #expect(lines.contains { $0.hasPrefix("recording: encoded. ! queue name=recording-queue") }, "\(lines)")
    }
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let movie = directory.appendingPathComponent("it's \"parsed\".mp4").path
    let description = model.launchDescription(mode: .video, output: movie, frames: 30)
    let end = try await Pipeline(launch: description).playToEnd()
    if case .endOfStream = end {} else { Issue.record("the line ended with \(String(describing: end))") }
    #expect(try await MediaInspector.frameCount(movie).frames == 30)
  }

  @Test(
    "a window preview shows its controls' overlaycomposition and text overlays that blend; the line runs, the element draws nothing there"
  )
  func controlsInTheLine() async throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.videoQuality = .type640x480
    var preview = HVTPipelineModel.PreviewSettings(output: .window(title: "launched"))
    preview.controls = CameraControls.Look(
      mode: .photo, flash: .auto, canSwitchMode: true, editing: false, recording: nil, review: nil)
    preview.overlays = [HVTCameraOverlay(.text("A")), HVTCameraOverlay(.text("B"), y: 0.9)]
    // A window sink given, so that no display is opened.
    let model = try controller.pipelineModel().showingPreview(
      preview, preset: controller.preset,
      windowSink: HVTElementDescription("fakesink", name: "preview", ["sync": "false"]))
    #expect(model.previewControls?.look == preview.controls)
    let line = model.launchCommand(mode: .photo, output: "p.jpg", frames: 3)
    #expect(line.components(separatedBy: "! textoverlay name=preview-overlay-").count == 3, "\(line)")
    #expect(
      line.contains("draw-outline=true ! video/x-raw ! overlaycomposition name=preview-controls ! taginject"),
      "\(line)")
    let directory = try TemporaryDirectory().url
    defer { try? FileManager.default.removeItem(at: directory) }
    let photo = directory.appendingPathComponent("launched.jpg").path
    let end = try await Pipeline(launch: model.launchDescription(mode: .photo, output: photo, frames: 3)).playToEnd()
    if case .endOfStream = end {} else { Issue.record("the line ended with \(String(describing: end))") }
    let discovered = try await MediaInspector.discover(photo)
    #expect(discovered.isJPEG && discovered.size == "640x480", "\(discovered)")
  }

  @Test("iFrame qualities encode every frame as a key frame")
  func iFrame() throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.videoQuality = .typeIFrame960x540
    let encoder = try #require(try controller.pipelineModel().recording.first { $0.factory == "x264enc" })
    #expect(encoder.value(of: "key-int-max") == "1")
    #expect(try controller.pipelineModel().configuration.size == HVTFrameSize(width: 960, height: 540))
  }
}
