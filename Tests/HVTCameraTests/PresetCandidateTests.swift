import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera

/// The engine's fallback between a slot's candidates: each built-in's movie encoders, each tuned in its
/// own words, and missing elements the library knows by name.
@Suite("Preset candidates", .timeLimit(.minutes(2)))
struct PresetCandidateTests {
  /// Each built-in's movie encoder candidates after the first installed one (which `PresetTests` records
  /// with): what a machine without that first one uses.
  static let fallbacks: [(preset: String, index: Int)] = PresetTests.builtIns.flatMap { name in
    let candidates = (try? HVTPreset.named(name))?.movieEncoder.candidates ?? []
    let installed = candidates.indices.filter { HVTElementDescription.isInstalled(candidates[$0].factory) }
    return installed.dropFirst().map { (name, $0) }
  }

  @Test("every built-in has an installed H.264 or VP9 fallback here: OpenH264 for the H.264 ones, VP9 for WebM")
  func everyBuiltInFallsBack() throws {
    for name in PresetTests.builtIns {
      let fallback = try #require(Self.fallbacks.first { $0.preset == name }, "\(name) has no fallback")
      let factory = try HVTPreset.named(name).movieEncoder.candidates[fallback.index].factory
      #expect(factory == (name == "webm-vp8" ? "vp9enc" : "openh264enc"), "\(name)")
    }
  }

  @Test("each built-in's fallback movie encoder records a movie gst-discoverer reads", arguments: fallbacks)
  func fallbackRecords(preset name: String, index: Int) async throws {
    var preset = try HVTPreset.named(name)
    let candidate = preset.movieEncoder.candidates[index]
    preset.movieEncoder = HVTElementSlot([candidate])
    let camera = try TestCamera(mode: .video, present: false)
    camera.controller.preset = preset
    camera.controller.videoQuality = .type640x480
    camera.controller.videoMaximumDuration = 1
    try await camera.controller.presentAndWait()
    let movie = try await camera.controller.recordMovie()
    await camera.controller.dismissAndWait()
    #expect(movie.metadata.encoder == candidate.factory)
    let report = try await MediaInspector.discover(movie.url)
    #expect(!report.failed && report.size == "640x480", "\(report)")
    #expect(report.codec?.hasPrefix(candidate.factory == "vp9enc" ? "VP9" : "H.264") == true, "\(report)")
    #expect(abs((report.duration ?? 0) - 1) <= 1.0 / 30 + 0.001, "\(report.duration ?? -1) s")
  }

  @Test("each encoder is tuned with its own properties only; a preset's own choice is kept")
  func tuning() throws {
    let size = HVTFrameSize(width: 640, height: 480)
    func tuned(_ encoder: String) throws -> [String: String] {
      let element = try ElementSyntax.parse(encoder)
      let result = EncoderTuning.tuned(element, size: size, frameRate: HVTFrameRate(30), intraOnly: false)
      return Dictionary(result.properties.map { ($0.name, $0.value) }) { _, last in last }
    }
    #expect(
      try tuned("x264enc speed-preset=superfast")
        == ["speed-preset": "superfast", "bitrate": "921", "key-int-max": "30"])
    #expect(
      try tuned("openh264enc complexity=low")
        == ["complexity": "low", "bitrate": "921600", "rate-control": "bitrate", "gop-size": "30"])
    #expect(try tuned("openh264enc rate-control=quality qp-min=18 qp-max=18 gop-size=60")["rate-control"] == "quality")
    #expect(
      try tuned("vp9enc deadline=1") == ["deadline": "1", "target-bitrate": "921600", "keyframe-max-dist": "30"])
  }

  @Test("a missing element the library knows is 'not installed (Debian: …)', never a did-you-mean to another codec")
  func knownNamesAreNotTypos() {
    let withoutX264 = GStreamer.elementFactoryNames().filter { $0 != "x264enc" }
    #expect(
      HVTPreset.missingElementMessage("x264enc", among: withoutX264, candidate: false)
        == "element 'x264enc' is not installed (Debian: gstreamer1.0-plugins-ugly)")
    #expect(HVTPreset.missingElementMessage("x264enc", among: withoutX264, candidate: true) == nil)
    // A typo still gets its suggestion, also as a candidate (within one edit).
    #expect(
      HVTPreset.missingElementMessage("x264enk", among: GStreamer.elementFactoryNames(), candidate: true)
        == "no element 'x264enk'; did you mean 'x264enc'?")
  }
}
