import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieTrim {
  /// The decoders and encoders a frame-exact trim can use for H.264, in order of preference.
  static let smartCutDecoders = ["avdec_h264", "openh264dec"]
  static let smartCutEncoders = [
    HVTElementDescription("x264enc", ["speed-preset": "medium", "bframes": "0"]),
    HVTElementDescription("openh264enc"),
  ]

  /// Writes the stretch from `cut.firstFrame` to `end` (source timestamps; `nil`: to the end) of
  /// `source` into `output`, frame-exact at both ends — a "smart cut": only the frames from the first one
  /// to the next key frame are decoded and encoded again; from that key frame on, every frame (and all
  /// the sound from the first frame on) is copied as it was. Returns the streams as they went into the
  /// muxer and how many frames were encoded again.
  ///
  /// Two pipelines. The first encodes the head into a file of its own:
  /// `filesrc ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! x264enc ! h264parse ! mp4mux ! filesink`,
  /// decoding from the key frame before the first frame and encoding from the first frame. The second
  /// joins it to the copied rest: `concat` takes the head, then the source's video from the next key frame;
  /// `h264parse config-interval=-1` turns both into H.264 with its parameter sets in the stream (the
  /// `avc3` form, which lets the two parts have their own), for the muxer, which also takes the source's
  /// sound from a demuxer of its own. Throws ``HVTCameraError/invalidTrim(path:reason:)`` for video other
  /// than H.264 (VP8 and VP9 in WebM) or a container whose muxer does not take `avc3`, and the errors of
  /// the pipelines.
  static func smartCut(
    _ source: URL, as container: HVTMovieRepair.Container, cut: Cut, end: UInt?, into output: URL,
    stallTimeout: Double
  ) throws -> (main: HVTMovieRepair.Stream, sound: HVTMovieRepair.Stream?, reencoded: Int) {
    let first = cut.firstFrame ?? cut.keyFrame
    let codec = cut.videoCodec ?? "of no known kind"
    guard codec == "video/x-h264" else {
      throw HVTCameraError.invalidTrim(
        path: source.path, reason: "a frame-exact start encodes H.264 again, and its video is \(codec)")
    }
    guard let avc3 = try? Caps("video/x-h264,stream-format=avc3,alignment=au"),
      !(GStreamer.padTemplateCaps(of: container.muxer, direction: .sink)?.intersection(avc3).isEmpty ?? true)
    else {
      throw HVTCameraError.invalidTrim(
        path: source.path,
        reason: "a frame-exact start needs H.264 with its parameter sets in the stream (avc3), "
          + "which \(container.muxer) does not write; trim \(container.name) at a key frame")
    }
    let headEnd = [cut.nextKeyFrame, end].compactMap { $0 }.min()
    debugLog.log(
      .info,
      "trim: frame-exact from \(format(first - cut.origin)) s: decoding from the key frame at "
        + "\(format(cut.keyFrame - cut.origin)) s, encoding up to "
        + (headEnd.map { "\(format($0 - cut.origin)) s" } ?? "the end"))
    let head = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hvtcamera-trim-head-\(UUID().uuidString.prefix(8)).mp4")
    defer { try? FileManager.default.removeItem(at: head) }
    let reencoded = try encodeHead(
      of: source, as: container, from: cut.keyFrame, showing: first, until: headEnd, bitRate: cut.videoBitRate,
      into: head, stallTimeout: stallTimeout)
    let tail = cut.nextKeyFrame.flatMap { next in end.map { next < $0 } ?? true ? next : nil }
    let joined = try join(
      head: head, source: source, as: container,
      tail: tail.map { HVTMovieRepair.Window(start: $0, end: end, offset: first) },
      sound: cut.hasSound ? HVTMovieRepair.Window(start: first, end: end) : nil, into: output,
      stallTimeout: stallTimeout)
    return (joined.main, joined.sound, reencoded)
  }

  /// The first pipeline of ``smartCut(_:as:cut:end:into:stallTimeout:)``: decodes the video from
  /// `keyFrame` up to `end`, encodes it again from `first` (timestamps moved back by it, so the head
  /// starts at zero) into an MP4 at `output`; returns the frames encoded.
  private static func encodeHead(
    of source: URL, as container: HVTMovieRepair.Container, from keyFrame: UInt, showing first: UInt, until end: UInt?,
    bitRate: Int?, into output: URL, stallTimeout: Double
  ) throws -> Int {
    typealias Repair = HVTMovieRepair
    guard let decoder = smartCutDecoders.first(where: HVTElementDescription.isInstalled),
      var encoder = smartCutEncoders.first(where: { HVTElementDescription.isInstalled($0.factory) })
    else {
      throw HVTCameraError.invalidTrim(
        path: source.path,
        reason: "a frame-exact start needs an H.264 decoder (\(smartCutDecoders.joined(separator: " or "))) "
          + "and encoder (\(smartCutEncoders.map(\.factory).joined(separator: " or "))); none is installed")
    }
    // The head is one run of frames from a key frame: no other key frame in it.
    if let spelling = EncoderTuning.spellings[encoder.factory] {
      encoder = encoder.setting(spelling.keyFrameInterval, to: "100000")
      if let bitRate, bitRate > 0 {
        encoder = encoder.setting(spelling.bitrate, to: String(max(1, Int(Double(bitRate) / spelling.bitsPerUnit))))
        if let mode = spelling.bitrateMode { encoder = encoder.setting(mode.property, to: mode.value) }
      }
    }
    encoder.name = "encoder"
    let pipeline = Pipeline(named: "hvtcamera-trim-head")
    let encoding = try Repair.chain(
      [
        HVTElementDescription("queue", name: "head"), HVTElementDescription("h264parse", name: "parser"),
        HVTElementDescription(decoder, name: "decoder"), HVTElementDescription("videoconvert", name: "convert"),
        HVTElementDescription("capsfilter", name: "format", ["caps": "video/x-raw,format=I420"]),
        encoder, HVTElementDescription("h264parse", name: "encoded"),
        HVTElementDescription("mp4mux", name: "muxer"),
        HVTElementDescription("filesink", name: "file", ["location": output.path]),
      ], in: pipeline, for: .trim, of: source)
    let progress = Repair.Progress(stallTimeout: stallTimeout)
    guard let input = encoding.first.staticPad("sink"), let encoderInput = encoding.elements[5].staticPad("sink")
    else {
      throw Repair.Job.trim.failed(
        source, HVTCameraError(GStreamerError.missingPad(element: "head", pad: "sink")))
    }
    try read(
      source, as: container, named: "head", in: pipeline, source: source, taking: "video/",
      through: Repair.Window(start: keyFrame, end: end, offset: 0), into: input, progress: progress, counting: nil)
    let encoded = Locked(0)
    // Decoded frames before the first one shown are left out; the rest start at zero.
    encoderInput.addProbe(.buffer) { [progress, encoded] _, info in
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      guard buffer.presentationTime >= first, let writable = info.writableBuffer() else { return .drop }
      writable.presentationTime -= first
      writable.decodingTime = ClockTime.none
      encoded.withLock { $0 += 1 }
      progress.noteProgress()
      return .ok
    }
    let ending = progress.run(pipeline)
    let frames = encoded.withLock { $0 }
    guard case .endOfStream = ending, frames > 0 else { throw ending.error(for: .trim, of: source, frames: frames) }
    return frames
  }

  /// The second pipeline of ``smartCut(_:as:cut:end:into:stallTimeout:)``: the head's video, then the
  /// source's within `tail` (none: the head is all of it), into one H.264 stream through `concat` and
  /// `h264parse`, and the source's sound within `sound` (none: a silent movie), into `output` with the
  /// container's muxer.
  private static func join(
    head: URL, source: URL, as container: HVTMovieRepair.Container, tail: HVTMovieRepair.Window?,
    sound: HVTMovieRepair.Window?, into output: URL, stallTimeout: Double
  ) throws -> (main: HVTMovieRepair.Stream, sound: HVTMovieRepair.Stream?) {
    typealias Repair = HVTMovieRepair
    let pipeline = Pipeline(named: "hvtcamera-trim-join")
    let writing = try Repair.chain(
      [
        HVTElementDescription("concat", name: "parts", ["adjust-base": "false"]),
        HVTElementDescription("h264parse", name: "parser", ["config-interval": "-1"]),
        HVTElementDescription("capsfilter", name: "avc3", ["caps": "video/x-h264,stream-format=avc3,alignment=au"]),
        HVTElementDescription(container.muxer, name: "muxer"),
        HVTElementDescription("filesink", name: "file", ["location": output.path]),
      ], in: pipeline, for: .trim, of: source)
    let concat = writing.first
    let muxer = writing.elements[3]
    let progress = Repair.Progress(stallTimeout: stallTimeout)
    let video = Locked(Repair.Stream())
    let audio = Locked<Repair.Stream?>(nil)
    // The parts in order: concat passes on its first pad until end of stream there, then its second.
    let parts = [(head, HVTMovieRepair.Container.mp4, Repair.Window())] + (tail.map { [(source, container, $0)] } ?? [])
    for (index, (file, kind, window)) in parts.enumerated() {
      try read(
        file, as: kind, named: "part-\(index)", in: pipeline, source: source, taking: "video/", through: window,
        into: try requestPad(of: concat, "sink_%u", for: source), progress: progress, counting: nil)
    }
    if let sound {
      try read(
        source, as: container, named: "sound", in: pipeline, source: source, taking: "audio/", through: sound,
        into: try requestPad(of: muxer, "audio_%u", for: source), progress: progress, counting: audio, queued: true)
    }
    writing.elements[2].staticPad("src")?.addProbe(.buffer) { [progress, video] pad, info in
      guard let buffer = info.buffer else { return .ok }
      video.withLock { stream in
        if stream.caps == nil { stream.caps = pad.currentCaps }
        stream.record(buffer)
      }
      progress.noteProgress()
      return .ok
    }
    let ending = progress.run(pipeline)
    let main = video.withLock { $0 }
    guard case .endOfStream = ending, main.frames > 0 else {
      throw ending.error(for: .trim, of: source, frames: main.frames)
    }
    return (main, audio.withLock { $0 })
  }

  /// A new pad of `element` from `template`; a failure names the movie.
  private static func requestPad(of element: Element, _ template: String, for source: URL) throws -> Pad {
    guard let pad = element.requestPad(template) else {
      throw HVTMovieRepair.Job.trim.failed(
        source, HVTCameraError(GStreamerError.missingPad(element: element.name, pad: template)))
    }
    return pad
  }

  /// Adds `filesrc ! <demuxer>` for `file` to `pipeline`: its first stream whose caps start with `media`
  /// goes through `window` (and a `queue` when `queued`) into `sink`, recorded in `counting`; every other
  /// stream into a `fakesink async=false`: the demuxer of the part `concat` holds back until the one
  /// before it ends may never reach its other streams before then, and a sink waiting for its first
  /// buffer would keep the pipeline from PLAYING, and so the first part from its end.
  private static func read(
    _ file: URL, as container: HVTMovieRepair.Container, named name: String, in pipeline: Pipeline, source: URL,
    taking media: String, through window: HVTMovieRepair.Window, into sink: Pad, progress: HVTMovieRepair.Progress,
    counting: Locked<HVTMovieRepair.Stream?>?, queued: Bool = false
  ) throws {
    typealias Repair = HVTMovieRepair
    let reading = try Repair.chain(
      [
        HVTElementDescription("filesrc", name: "\(name)-file", ["location": file.path]),
        HVTElementDescription(container.demuxer, name: "\(name)-demuxer"),
      ], in: pipeline, for: .trim, of: source)
    let taken = Locked(false)
    reading.last.onPadAdded { [progress, taken, weak pipeline] pad in
      let matches = pad.currentCaps.map { $0.count > 0 && $0.structure(at: 0).name.hasPrefix(media) } ?? false
      let take =
        matches
        && taken.withLock { taken in
          defer { taken = true }
          return !taken
        }
      do {
        guard let pipeline else { return }
        guard take else {
          _ = try Repair.attach(
            HVTElementDescription("fakesink", name: "\(name)-unused-\(pad.name)", ["sync": "false", "async": "false"]),
            to: pad,
            in: pipeline)
          return
        }
        let ended = Locked(false)
        pad.addProbe(.buffer) { [progress] pad, info in
          guard info.buffer != nil else { return .ok }
          // Reading up to the window is progress too (the tail's demuxer reads from the file's start).
          progress.noteProgress()
          guard window.admit(&info, ended: ended) else { return .drop }
          if let counting, let kept = info.buffer {
            counting.withLock { stream in
              if stream == nil { stream = Repair.Stream(caps: pad.currentCaps) }
              stream?.record(kept)
            }
          }
          return .ok
        }
        guard queued else { return try pad.link(to: sink) }
        let queue = try Repair.attach(Repair.streamQueue(named: "\(name)-queue"), to: pad, in: pipeline)
        guard let output = queue.staticPad("src") else {
          throw GStreamerError.linkFailed(from: pad.name, to: queue.name)
        }
        try output.link(to: sink)
      } catch {
        progress.finish(.failed(HVTCameraError(error)))
      }
    }
  }
}
