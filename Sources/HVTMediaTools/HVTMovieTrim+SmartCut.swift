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

  /// A stretch of video a smart cut decodes and encodes again: decoded from `keyFrame` up to `through`
  /// (the next key frame; `nil`: the end of the file), the frames shown from `from` up to `until` (`nil`:
  /// the end) encoded. Running times (nanoseconds, ``HVTMovieRepair/StreamClock``).
  struct Reencoding: Sendable {
    /// The key frame decoding starts from.
    var keyFrame: UInt
    /// The key frame decoding stops at (the whole group of pictures is read: with B-frames, frames
    /// shown before the end can be decoded after one shown after it); `nil`: the end of the file.
    var through: UInt?
    /// The first frame encoded.
    var from: UInt
    /// Frames shown at or after it are not encoded; `nil`: every frame to the end.
    var until: UInt?
    /// The source's bits per second there, which the encoder aims for.
    var bitRate: Int?
    /// The source's B-frame delay there: the encoded frames are given decoding times this much before
    /// their presentation times, as the copied ones have, so that decoding times never go back where
    /// the parts meet.
    var lead: UInt
  }

  /// Writes the stretch from `cut.firstFrame` (or `cut.keyFrame`) to `end` (running time; `nil`: to the
  /// end) of `source` into `output`, frame-exact at both ends — a "smart cut": only the frames from the
  /// first one to the next key frame, and, when `ending` says the frames before the end are not decoded
  /// in the order they are shown (B-frames), those from the end's key frame to the end, are decoded and
  /// encoded again; every frame between (and all the sound from the first frame on) is copied as it was.
  /// Returns the streams as they went into the muxer and how many frames were encoded again.
  ///
  /// The encoded parts are written into files of their own, each by a pipeline
  /// `filesrc ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! x264enc ! h264parse ! mp4mux ! filesink`
  /// (``encode(_:of:as:showing:into:stallTimeout:)``). A last pipeline joins them to the copied middle:
  /// `concat` takes the head, the source's video from the next key frame, then the tail;
  /// `h264parse config-interval=-1` turns them into H.264 with its parameter sets in the stream (the
  /// `avc3` form, which lets the parts have their own), for the muxer, which also takes the source's sound
  /// from a demuxer of its own. Throws ``HVTCameraError/invalidTrim(path:reason:)`` for video other than
  /// H.264 (VP8 and VP9 in WebM) or a container whose muxer does not take `avc3`, and the errors of the
  /// pipelines.
  static func smartCut(
    _ source: URL, as container: HVTMovieRepair.Container, cut: Cut, end: UInt?, ending: Ending?, into output: URL,
    stallTimeout: Double
  ) throws -> (main: HVTMovieRepair.Stream, sound: HVTMovieRepair.Stream?, reencoded: Int) {
    let first = cut.firstFrame ?? cut.keyFrame
    let startsOnKeyFrame = first == cut.keyFrame || first == cut.nextKeyFrame
    // The group of pictures the end falls in, when its frames cannot be copied up to the end.
    let reordered = ending.flatMap { $0.isReordered ? $0 : nil }
    let why =
      startsOnKeyFrame
      ? "an end among frames decoded out of the order they are shown (B-frames) encodes H.264 again"
      : "a frame-exact start encodes H.264 again"
    let codec = cut.videoCodec ?? "of no known kind"
    guard codec == "video/x-h264" else {
      throw HVTCameraError.invalidTrim(path: source.path, reason: "\(why), and its video is \(codec)")
    }
    guard let avc3 = try? Caps("video/x-h264,stream-format=avc3,alignment=au"),
      !(GStreamer.padTemplateCaps(of: container.muxer, direction: .sink)?.intersection(avc3).isEmpty ?? true)
    else {
      throw HVTCameraError.invalidTrim(
        path: source.path,
        reason: "\(why), which needs H.264 with its parameter sets in the stream (avc3), "
          + "which \(container.muxer) does not write; trim \(container.name) at a key frame")
    }
    var head: Reencoding?
    var tail: Reencoding?
    if let reordered, reordered.keyFrame <= first {
      // The whole movie lies in the end's group of pictures.
      head = Reencoding(
        keyFrame: reordered.keyFrame, through: reordered.nextKeyFrame, from: first, until: end,
        bitRate: reordered.videoBitRate, lead: reordered.lead)
    } else {
      if !startsOnKeyFrame {
        head = Reencoding(
          keyFrame: cut.keyFrame, through: cut.nextKeyFrame, from: first,
          until: [cut.nextKeyFrame, end].compactMap { $0 }.min(), bitRate: cut.videoBitRate, lead: cut.lead)
      }
      if let reordered {
        tail = Reencoding(
          keyFrame: reordered.keyFrame, through: reordered.nextKeyFrame, from: reordered.keyFrame, until: end,
          bitRate: reordered.videoBitRate, lead: reordered.lead)
      }
    }
    // The copied middle: from the first key frame not encoded again up to the tail or the end.
    let copiedFrom = head == nil ? first : cut.nextKeyFrame
    let copiedTo = tail?.keyFrame ?? end
    let middle = copiedFrom.flatMap { from in copiedTo.map { from < $0 } ?? true ? from : nil }
    debugLog.log(
      .info,
      "trim: from \(format(first - cut.origin)) s, "
        + [head, tail].compactMap { part in
          part.map {
            "encoding \(format($0.from - cut.origin)) s to "
              + ($0.until.map { "\(format($0 - cut.origin)) s" } ?? "the end")
              + " (decoded from the key frame at \(format($0.keyFrame - cut.origin)) s)"
          }
        }.joined(separator: ", "))
    var parts: [(file: URL, container: HVTMovieRepair.Container, window: HVTMovieRepair.Window)] = []
    var encodedFiles: [URL] = []
    defer { for file in encodedFiles { try? FileManager.default.removeItem(at: file) } }
    var reencoded = 0
    /// Encodes `part` into a file of its own and adds it to the parts, moved forward to follow the first frame.
    func addEncoded(_ part: Reencoding) throws {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "hvtcamera-trim-part-\(UUID().uuidString.prefix(8)).mp4")
      encodedFiles.append(file)
      reencoded += try encode(part, of: source, as: container, into: file, stallTimeout: stallTimeout)
      parts.append((file, .mp4, HVTMovieRepair.Window(offset: -Int(part.from - first))))
    }
    if let head { try addEncoded(head) }
    if let middle {
      parts.append((source, container, HVTMovieRepair.Window(start: middle, end: copiedTo, offset: Int(first))))
    }
    if let tail { try addEncoded(tail) }
    let joined = try join(
      parts, source: source, as: container,
      sound: cut.hasSound ? HVTMovieRepair.Window(start: first, end: end) : nil, into: output,
      stallTimeout: stallTimeout)
    return (joined.main, joined.sound, reencoded)
  }

  /// The pipeline of ``smartCut(_:as:cut:end:ending:into:stallTimeout:)`` that encodes a part again:
  /// decodes the video from `part.keyFrame` through the group of pictures, encodes the frames shown from
  /// `part.from` up to `part.until` (timestamps moved back by `part.from`, so that the part starts at
  /// zero; decoding times `part.lead` before them) into an MP4 at `output`; returns the frames encoded.
  private static func encode(
    _ part: Reencoding, of source: URL, as container: HVTMovieRepair.Container, into output: URL,
    stallTimeout: Double
  ) throws -> Int {
    typealias Repair = HVTMovieRepair
    guard let decoder = smartCutDecoders.first(where: HVTElementDescription.isInstalled),
      var encoder = smartCutEncoders.first(where: { HVTElementDescription.isInstalled($0.factory) })
    else {
      throw HVTCameraError.invalidTrim(
        path: source.path,
        reason: "a frame-exact trim needs an H.264 decoder (\(smartCutDecoders.joined(separator: " or "))) "
          + "and encoder (\(smartCutEncoders.map(\.factory).joined(separator: " or "))); none is installed")
    }
    // The part is one run of frames from a key frame: no other key frame in it.
    if let spelling = EncoderTuning.spellings[encoder.factory] {
      encoder = encoder.setting(spelling.keyFrameInterval, to: "100000")
      if let bitRate = part.bitRate, bitRate > 0 {
        encoder = encoder.setting(spelling.bitrate, to: String(max(1, Int(Double(bitRate) / spelling.bitsPerUnit))))
        if let mode = spelling.bitrateMode { encoder = encoder.setting(mode.property, to: mode.value) }
      }
    }
    encoder.name = "encoder"
    let pipeline = Pipeline(named: "hvtcamera-trim-encode")
    let encoding = try Repair.chain(
      [
        HVTElementDescription("queue", name: "part"), HVTElementDescription("h264parse", name: "parser"),
        HVTElementDescription(decoder, name: "decoder"), HVTElementDescription("videoconvert", name: "convert"),
        HVTElementDescription("capsfilter", name: "format", ["caps": "video/x-raw,format=I420"]),
        encoder, HVTElementDescription("h264parse", name: "encoded"),
        HVTElementDescription("mp4mux", name: "muxer"),
        HVTElementDescription("filesink", name: "file", ["location": output.path]),
      ], in: pipeline, for: .trim, of: source)
    let progress = Repair.Progress(stallTimeout: stallTimeout)
    guard let input = encoding.first.staticPad("sink"), let encoderInput = encoding.elements[5].staticPad("sink"),
      let encoderOutput = encoding.elements[5].staticPad("src")
    else {
      throw Repair.Job.trim.failed(
        source, HVTCameraError(GStreamerError.missingPad(element: "part", pad: "sink")))
    }
    try read(
      source, as: container, named: "part", in: pipeline, source: source, taking: "video/",
      through: Repair.Window(start: part.keyFrame, end: part.through, offset: 0), into: input, progress: progress,
      counting: nil)
    let encoded = Locked(0)
    let clock = Repair.StreamClock()
    // Decoded frames shown before the part or after it are left out; the rest start at zero.
    encoderInput.addProbe([.buffer, .eventDownstream]) { [progress, encoded] _, info in
      clock.note(info)
      guard let buffer = info.buffer, ClockTime.isValid(buffer.presentationTime) else { return .ok }
      let time = clock.runningTime(of: buffer.presentationTime)
      guard time >= part.from, part.until.map({ time < $0 }) ?? true, let writable = info.writableBuffer() else {
        return .drop
      }
      writable.presentationTime -= part.from
      writable.decodingTime = ClockTime.none
      encoded.withLock { $0 += 1 }
      progress.noteProgress()
      return .ok
    }
    // Encoded without B-frames, each frame is decoded when it is shown; the copied frames `lead` before.
    if part.lead > 0 {
      encoderOutput.addProbe(.buffer) { _, info in
        guard let buffer = info.buffer, ClockTime.isValid(buffer.decodingTime), buffer.decodingTime >= part.lead,
          let writable = info.writableBuffer()
        else { return .ok }
        writable.decodingTime -= part.lead
        return .ok
      }
    }
    let ending = progress.run(pipeline)
    let frames = encoded.withLock { $0 }
    guard case .endOfStream = ending, frames > 0 else { throw ending.error(for: .trim, of: source, frames: frames) }
    return frames
  }

  /// The last pipeline of ``smartCut(_:as:cut:end:ending:into:stallTimeout:)``: the video of `parts`
  /// (each a file, its container and the window of it taken), one after the other, into one H.264 stream
  /// through `concat` and `h264parse`, and the source's sound within `sound` (none: a silent movie), into
  /// `output` with the container's muxer.
  private static func join(
    _ parts: [(file: URL, container: HVTMovieRepair.Container, window: HVTMovieRepair.Window)], source: URL,
    as container: HVTMovieRepair.Container, sound: HVTMovieRepair.Window?, into output: URL, stallTimeout: Double
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
    // The muxer keeps the first part's caps: the parts' parameter sets travel in the stream (avc3), and
    // matroskamux refuses new caps (each encoded part has its own level and codec data).
    let negotiated = Locked(false)
    writing.elements[2].staticPad("src")?.addProbe([.buffer, .eventDownstream]) { [progress, video] pad, info in
      if case .caps = info.event {
        return negotiated.withLock { negotiated in
          defer { negotiated = true }
          return negotiated ? .drop : .ok
        }
      }
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
        let clock = Repair.StreamClock()
        pad.addProbe([.buffer, .eventDownstream]) { [progress] pad, info in
          // Reading up to the window is progress too (the tail's demuxer reads from the file's start).
          if info.buffer != nil { progress.noteProgress() }
          guard window.admit(&info, clock: clock, ended: ended) else { return .drop }
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
