import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera

/// The movie encoder's bit rate and key-frame interval as the app sets them (`videoBitRate`,
/// `videoKeyFrameInterval`), over the preset's and the engine's, read back from the movies by ffprobe.
@Suite("Movie bit rate and key-frame interval", .timeLimit(.minutes(2)))
struct EncodingSettingsTests {
  @Test("the app's values are written in each encoder's own property and unit, over the preset's")
  func spelledPerEncoder() {
    let request = EncoderTuning.Request(bitRate: 2_000_000, keyFrameInterval: 0.5)
    let size = HVTFrameSize(width: 640, height: 480)
    func tuned(_ encoder: HVTElementDescription, intraOnly: Bool = false) -> HVTElementDescription {
      EncoderTuning.tuned(encoder, size: size, frameRate: HVTFrameRate(30), intraOnly: intraOnly, request: request)
    }
    let x264 = tuned(HVTElementDescription("x264enc", ["bitrate": "9000", "key-int-max": "300"]))
    #expect(x264.value(of: "bitrate") == "2000" && x264.value(of: "key-int-max") == "15", "\(x264)")
    let vp8 = tuned(HVTElementDescription("vp8enc"))
    #expect(vp8.value(of: "target-bitrate") == "2000000" && vp8.value(of: "keyframe-max-dist") == "15", "\(vp8)")
    let openh264 = tuned(HVTElementDescription("openh264enc"))
    #expect(openh264.value(of: "bitrate") == "2000000" && openh264.value(of: "rate-control") == "bitrate")
    #expect(tuned(HVTElementDescription("x264enc"), intraOnly: true).value(of: "key-int-max") == "1")
    // Without a request the preset's values stay.
    let kept = EncoderTuning.tuned(
      HVTElementDescription("x264enc", ["bitrate": "9000", "key-int-max": "300"]), size: size,
      frameRate: HVTFrameRate(30), intraOnly: false)
    #expect(kept.value(of: "bitrate") == "9000" && kept.value(of: "key-int-max") == "300")
  }

  @Test("values outside the limits are clamped, NaN is ignored, nil brings the default back")
  func limits() throws {
    let controller = try HVTCameraController(source: .simulated)
    controller.videoBitRate = 1
    #expect(controller.videoBitRate == HVTCaptureLimits.videoBitRate.lowerBound)
    controller.videoKeyFrameInterval = 3600
    #expect(controller.videoKeyFrameInterval == HVTCaptureLimits.keyFrameInterval.upperBound)
    controller.videoKeyFrameInterval = .nan
    #expect(controller.videoKeyFrameInterval == HVTCaptureLimits.keyFrameInterval.upperBound)
    controller.videoBitRate = nil
    controller.videoKeyFrameInterval = nil
    #expect(controller.videoBitRate == nil && controller.videoKeyFrameInterval == nil)
  }

  /// Records `seconds` of the simulated camera at 640x480, 30 fps, with `bitRate` and `interval`.
  func record(bitRate: Int, keyFrameInterval interval: Double, seconds: Double) async throws -> MediaInspector.Packets {
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.videoBitRate = bitRate
    camera.controller.videoKeyFrameInterval = interval
    try await camera.controller.presentAndWait()
    try await camera.startRecording()
    try await camera.waitForRecorded(seconds: seconds)
    camera.controller.stopVideoCapture()
    let movie = try await camera.delegate.nextCapture(.movie)
    let packets = try await MediaInspector.packets(try movie.movieURL.path)
    await camera.controller.dismissAndWait()
    return packets
  }

  @Test(
    "key frames at most 0.5 s apart are at most 15 frames apart at 30 fps; ten times the bit rate makes a much larger movie",
    .enabled(if: MediaInspector.hasFFprobe, "ffprobe is not installed"))
  func recorded() async throws {
    let low = try await record(bitRate: 200_000, keyFrameInterval: 0.5, seconds: 2)
    #expect(low.count >= 60, "\(low.count) packets")
    // The interval is a longest distance: x264's scene-cut detection may place a key frame earlier.
    #expect(low.keyFrames.first == 0 && low.longestKeyFrameDistance <= 15, "key frames at \(low.keyFrames)")
    let high = try await record(bitRate: 2_000_000, keyFrameInterval: 2, seconds: 2)
    #expect(high.longestKeyFrameDistance <= 60, "key frames at \(high.keyFrames)")
    #expect(high.keyFrames.count < low.keyFrames.count, "\(high.keyFrames) against \(low.keyFrames)")
    // Bytes per frame, since the two recordings' lengths differ by a frame or two.
    let ratio = (Double(high.bytes) / Double(high.count)) / (Double(low.bytes) / Double(low.count))
    #expect(ratio > 3, "2 Mbit/s made \(ratio)× the bytes per frame of 200 kbit/s")
  }
}
