import Foundation
import Testing

@testable import HVTCamera

/// A preset's `streams`: read into ``HVTStream`` values, and rendered into the `gst-launch-1.0` line with
/// their encoders and their tuned elements.
@Suite("Preset streams")
struct PresetStreamsTests {
  static let text = """
    {
      "name": "broadcast",
      "description": "the camera to an SRT gateway, a small RTSP preview and an HLS folder",
      "quality": "640x480",
      "preview": "fakesink sync=false",
      "photo": { "encoder": "jpegenc", "extension": "jpg" },
      "movie": { "encoder": "x264enc speed-preset=superfast tune=zerolatency", "muxer": "mp4mux", "extension": "mp4" },
      "streams": [
        { "srt": "srt://:9000?mode=listener", "tuning": ["srtsink latency=300", "mpegtsmux pcr-interval=360"] },
        { "rtsp": "127.0.0.1:8554/small", "credentials": "ann:s3cret", "size": "320x240", "bitrate": 300000 },
        { "hls": "/var/www/cam", "segmentDuration": 1, "playlistLength": 8 }
      ]
    }
    """

  @Test("targets, encodings and tuning are read as written")
  func read() throws {
    let streams = try HVTPreset.parse(Self.text, file: "broadcast.json").streams
    try #require(streams.count == 3)
    #expect(streams[0].target == .srt(uri: "srt://:9000?mode=listener") && streams[0].encoding.isMovie)
    #expect(streams[0].tuning.map(\.launchText) == ["srtsink latency=300", "mpegtsmux pcr-interval=360"])
    #expect(
      streams[1].target
        == .rtspServer(
          port: 8554, path: "/small", address: "127.0.0.1",
          credentials: HVTStreamCredentials(user: "ann", password: "s3cret")))
    #expect(streams[1].encoding == HVTStreamEncoding(size: HVTFrameSize(width: 320, height: 240), bitRate: 300_000))
    #expect(
      streams[2].target == .hls(directory: URL(fileURLWithPath: "/var/www/cam"), segmentDuration: 1, playlistLength: 8))
  }

  @Test(
    "the launch line tunes the branches' elements; the movie shares the movies' encoder, the small stream has its own")
  func launchLine() throws {
    let preset = try HVTPreset.parse(Self.text, file: "broadcast.json")
    let controller = try HVTCameraController(source: .simulated)
    controller.preset = preset
    controller.capturesAudio = false
    let line = try controller.pipelineModel().launchCommand(
      mode: .video, output: "movie.mp4", frames: 30, streams: preset.streams)
    #expect(line.contains("srtsink name=stream1-sink 'uri=\"srt://127.0.0.1:9000?mode=listener\"' "), "\(line)")
    #expect(line.contains(" latency=300"), "\(line)")
    #expect(line.contains("mpegtsmux name=stream1-muxer alignment=7 pcr-interval=360"), "\(line)")
    #expect(line.contains("target-duration=1 playlist-length=8"), "\(line)")
    // The RTSP server of the process's own has no launch syntax: its encoder is not in the line either.
    #expect(line.components(separatedBy: "x264enc").count == 2, "\(line)")
    #expect(line.contains("streams. ! queue name=recording-queue"), "\(line)")
    let engine = try controller.pipelineModel().engineDescription(movie: "movie.mp4", streams: preset.streams)
    #expect(engine.components(separatedBy: "x264enc").count == 3, "\(engine)")
    #expect(engine.contains("tee name=streams-320x240-300000bps"), "\(engine)")
  }
}
