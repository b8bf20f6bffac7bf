import Foundation
import Testing

@testable import HVTCamera

/// Bad preset files, each with exactly the errors it must produce (after `FILE:`), in order.
@Suite("Preset validation")
struct PresetValidationTests {
  static let expectations: [String: [String]] = [
    "bad-caps": ["14:13: movie.caps: invalid caps \"video/x-raw,format=(int)[\""],
    "bad-enum-value": [
      "13:16: movie.encoder: element 'x264enc' rejects speed-preset=fastest: expected one of None, ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo"
    ],
    "bad-extension": ["15:18: movie.extension: \".mp4\" is not a file extension (letters and digits, without the dot)"],
    "candidate-typo": [
      "13:30: movie.encoder[1]: no element 'openh264enk'; did you mean 'openh264enc'?",
      "13:16: movie.encoder: none of the candidates is installed here (nvh264enc | openh264enk; Debian: gstreamer1.0-plugins-bad)",
    ],
    "caps-too-deep": ["14:65: movie.caps: nesting deeper than 32"],
    "crlf-line-ends": ["13:16: movie.encoder: no element 'x264enk'; did you mean 'x264enc'?"],
    "duplicate-key": ["6:3: syntax error: duplicate key \"frameRate\""],
    "empty-candidates": ["13:16: movie.encoder: expected at least one candidate element"],
    "filter-not-video": [
      "7:15: filters[0]: cannot link 'videobalance' to 'audioconvert': audioconvert does not take what videobalance makes"
    ],
    "fractional-frame-rate": ["5:16: frameRate: expected a whole number of frames per second from 1 to 240"],
    "known-element-missing": [
      "13:16: movie.encoder: element 'nvh264enc' is not installed (Debian: gstreamer1.0-plugins-bad)"
    ],
    "missing-movie": ["1:1: missing required key \"movie\""],
    "name-mismatch": ["2:11: name: \"something-else\" does not match the file name; expected \"name-mismatch\""],
    "name-property": ["9:25: photo.encoder: name= is not allowed: the engine names elements by their role"],
    "no-candidate-installed": [
      "13:16: movie.encoder: none of the candidates is installed here (nvh264enc | vah264enc; Debian: gstreamer1.0-plugins-bad)"
    ],
    "not-an-object": ["1:1: expected an object, found array"],
    "not-utf8": ["3:45: syntax error: the file is not UTF-8 text"],
    "out-of-range": [
      "9:16: photo.encoder: element 'jpegenc' rejects quality=150: expected a value of type gint in 0...100 (Quality of encoding)"
    ],
    "property-without-value": ["13:48: movie.encoder: expected property=value, found 'zerolatency'"],
    "quality-not-a-string": ["4:14: quality: expected a string, found number"],
    "read-only-property": ["7:14: preview: property 'last-message' of element 'fakesink' is read-only"],
    "stream-bad-rtsp": [
      "18:15: streams[0].rtsp: expected [ADDRESS]:PORT/PATH, e.g. \":8554/cam\", not \"8554/cam\"",
      "19:58: streams[1].playlistLength: \"playlistLength\" is for an hls stream",
    ],
    "stream-foreign-element": [
      "18:54: streams[0].tuning[0]: the srt stream has no element 'flvmux' (its elements: queue, h264parse, mpegtsmux, srtsink)"
    ],
    "stream-open-server": [
      "20:58: streams[2].allowAnonymous: \"allowAnonymous\" is for an rtsp or srt stream",
      "18:15: streams[0].rtsp: the RTSP server on 0.0.0.0 would let anyone on the network watch: give it credentials, listen on 127.0.0.1 (this machine only), or allow anonymous viewers explicitly",
      "19:14: streams[1].srt: the SRT passphrase has 5 characters: SRT takes 10 to 79 (its key is derived from at least 10), or none for an unencrypted stream",
    ],
    "stream-ranges": [
      "18:14: streams[0].srt: the SRT URI names no host to call: srt://HOST:PORT calls one, srt://:PORT?mode=listener waits for callers",
      "19:15: streams[1].rtsp: the RTSP port 99999 is not between 0 and 65535 (0: a free one)",
      "20:15: streams[2].rtsp: the RTSP path \"/cam?x=1\" holds a query or fragment (? or #), which clients send apart from the path: none would find the mount",
      "21:14: streams[3].srt: the SRT latency \"-5\" is not a whole number of milliseconds from 0",
      "22:15: streams[4].rtmp: the RTMP URL's port 99999 is not between 1 and 65535",
      "23:14: streams[5].srt: the SRT URI's host [zz] is not an IPv6 address",
      "24:14: streams[6].hls: the HLS playlist length 100000 is not between 1 and 10000 segments",
    ],
    "stream-conflicts": [
      "20:15: streams[2].rtmp: it is streamed to already",
      "21:15: streams[3].rtsp: the RTSP port 8554 is served already, by rtsp://127.0.0.1:8554/cam: one RTSP server serves one path",
      "23:14: streams[5].srt: the SRT port 9000 is listened on already, by srt://127.0.0.1:9000?mode=listener",
      "25:14: streams[7].hls: the HLS folder /var/www/../www/cam is written already, by another stream",
    ],
    "stream-two-targets": ["18:5: streams[0]: expected exactly one target (rtsp, rtspPush, srt, rtmp, hls), found 2"],
    "stream-unknown-property": [
      "18:59: streams[0].tuning[0]: element 'hlssink2' has no property 'max-filez'; did you mean 'max-files'?"
    ],
    "too-deep": ["8:45: nesting deeper than 32"],
    "trailing-comma": ["16:3: syntax error: expected a key in double quotes, found '}'"],
    "typo-of-missing-element": [
      "13:16: movie.encoder: no element 'nvh264enk'; did you mean 'nvh264enc'? (not installed; Debian: gstreamer1.0-plugins-bad)"
    ],
    "unknown-element": ["13:16: movie.encoder: no element 'x264enk'; did you mean 'x264enc'?"],
    "unknown-format": ["6:13: format: unknown format \"I421\"; did you mean \"I420\"? (MJPEG or a raw video format)"],
    "unknown-key": [
      "4:3: qualty: unknown key \"qualty\"; did you mean \"quality\"?", "1:1: missing required key \"quality\"",
    ],
    "unknown-property": [
      "13:16: movie.encoder: element 'x264enc' has no property 'speed-preest'; did you mean 'speed-preset'?"
    ],
    "unknown-quality": [
      "4:14: quality: unknown quality \"640x481\"; did you mean \"640x480\"? (one of: high, medium, low, 640x480, 1280x720, 1920x1080, 3840x2160, iframe960x540, iframe1280x720)"
    ],
    "unlinkable-branch": [
      "14:14: movie.muxer: cannot link 'vp8enc' to 'mp4mux': mp4mux does not take what vp8enc makes"
    ],
    "unterminated-quote": ["7:29: preview: unterminated double quote"],
    "unterminated-string": ["3:45: syntax error: line break inside a string"],
    "value-too-deep": ["8:64: filters[0]: nesting deeper than 32"],
  ]

  static var corpus: URL {
    get throws { try #require(Bundle.module.url(forResource: "BadPresets", withExtension: nil)) }
  }

  @Test("the corpus holds at least twenty bad presets, each with its expectation")
  func corpusIsComplete() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".json") }
    #expect(files.count >= 20)
    #expect(Set(files.map { String($0.dropLast(5)) }) == Set(Self.expectations.keys))
  }

  @Test("each bad preset gives exactly its errors", arguments: expectations.keys.sorted())
  func badPreset(name: String) throws {
    let url = try Self.corpus.appendingPathComponent("\(name).json")
    let error = try #require(throws: HVTPresetError.self) { try HVTPreset.load(contentsOf: url) }
    let reported = error.issues.map { issue in
      #expect(issue.file == url.relativePath)
      return String(issue.description.dropFirst(url.relativePath.count + 1))
    }
    #expect(reported == Self.expectations[name])
  }
}
