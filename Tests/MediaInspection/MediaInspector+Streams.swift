import Foundation

extension MediaInspector {
  /// One stream of a movie as `ffprobe` reads it: its codec and the time its packets span.
  public struct Stream: Sendable, CustomStringConvertible {
    /// `video` or `audio`.
    public var type: String
    /// The codec, e.g. `h264`, `aac`, `opus`.
    public var codec: String
    /// Samples per second (sound only).
    public var sampleRate: Int?
    /// Channels (sound only).
    public var channels: Int?
    /// The earliest packet's presentation time, in seconds.
    public var start: Double
    /// The latest end of a packet (presentation time plus duration), in seconds.
    public var end: Double
    /// How many packets there are.
    public var packets: Int
    /// The longest stretch with no packet, in presentation order: from the end of one packet to the start
    /// of the next (seconds; 0 when they follow each other without a hole).
    public var largestGap = 0.0
    /// The packets' presentation times in order, in seconds: a video stream's frames' times.
    public var times: [Double] = []
    /// From the first packet's start to the last one's end.
    public var duration: Double { end - start }
    /// `aac audio 48000 Hz 2 ch 0.000…2.005 s (94 packets)`.
    public var description: String {
      let sound = sampleRate.map { " \($0) Hz \(channels ?? 0) ch" } ?? ""
      return "\(codec) \(type)\(sound) \(start)…\(end) s (\(packets) packets)"
    }
  }

  /// Every stream of a movie, in the file's order, from `ffprobe -show_streams` and its packets'
  /// presentation times and durations. Throws when the tool fails.
  public static func streams(_ path: String) async throws -> [Stream] {
    let described = try await run(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "stream=index,codec_type,codec_name,sample_rate,channels", "-of",
        "csv=p=0:nk=0", path,
      ])
    let timed = try await run(
      "ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts_time,duration_time", "-of", "csv=p=0", path])
    guard described.status == 0, timed.status == 0 else { throw InspectionError(described.output + timed.output) }
    var streams: [Int: Stream] = [:]
    var spans: [Int: [(start: Double, end: Double)]] = [:]
    for line in described.output.split(separator: "\n") {
      var fields: [String: String] = [:]
      for pair in line.split(separator: ",") {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { fields[parts[0]] = parts[1] }
      }
      guard let index = fields["index"].flatMap({ Int($0) }) else { continue }
      streams[index] = Stream(
        type: fields["codec_type"] ?? "?", codec: fields["codec_name"] ?? "?",
        sampleRate: fields["sample_rate"].flatMap { Int($0) }, channels: fields["channels"].flatMap { Int($0) },
        start: .infinity, end: 0, packets: 0)
    }
    for line in timed.output.split(separator: "\n") {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 3, let index = Int(fields[0]), let pts = Double(fields[1]), var stream = streams[index]
      else { continue }
      stream.start = min(stream.start, pts)
      stream.end = max(stream.end, pts + (Double(fields[2]) ?? 0))
      stream.packets += 1
      streams[index] = stream
      spans[index, default: []].append((pts, pts + (Double(fields[2]) ?? 0)))
    }
    for (index, packets) in spans {
      let ordered = packets.sorted { $0.start < $1.start }
      streams[index]?.largestGap = zip(ordered, ordered.dropFirst()).map { $1.start - $0.end }.max() ?? 0
      streams[index]?.times = ordered.map(\.start)
    }
    return streams.keys.sorted().compactMap { streams[$0] }
  }
}

extension MediaInspector {
  /// The zero crossings per sample of a movie's first sound stream, as FFmpeg's `astats` counts them in
  /// each tenth of a second of its first channel, the median of those: a pure tone of F hertz at 48 kHz
  /// crosses zero 2 × F / 48 000 times a sample. The median, not the whole stream's rate: a glitch (a
  /// PipeWire graph that missed its deadline on a loaded machine) is a step in the wave that the AAC encoder
  /// rings around, and three of them raised a 2 s recording's rate from 0.0367 to 0.0389, while each tenth
  /// of a second without one stays at 0.0367. Throws when FFmpeg fails or prints no rate.
  public static func zeroCrossingRate(_ path: String) async throws -> Double {
    let result = try await run(
      "ffmpeg",
      [
        "-v", "info", "-nostats", "-i", path, "-map", "0:a", "-af",
        "asetnsamples=n=4800,astats=metadata=1:reset=1,ametadata=mode=print", "-f", "null", "-",
      ])
    let rates = result.output.split(separator: "\n").compactMap { line in
      line.firstMatch(of: /lavfi\.astats\.1\.Zero_crossings_rate=([0-9.]+)/).flatMap { Double($0.1) }
    }.sorted()
    guard !rates.isEmpty else {
      throw InspectionError("ffmpeg astats gave no zero crossings rate for \(path):\n\(result.output)")
    }
    return rates[rates.count / 2]
  }
}

extension MediaInspector {
  /// The amplitude (1 is full scale) at each of `frequencies` of a movie's first sound stream, decoded by
  /// FFmpeg to 48 kHz mono 16-bit samples and measured over the whole stream by the Goertzel algorithm:
  /// which tone a recording holds, whatever glitches a loaded machine put in it. A glitch spreads a little
  /// power over every frequency, a tone puts all of its power at one; zero crossings (``zeroCrossingRate(_:)``)
  /// count the glitches' ringing too. Throws when FFmpeg fails or decodes no sample.
  public static func toneAmplitudes(_ path: String, at frequencies: [Double]) async throws -> [Double] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let samplesPath = directory.path("sound.s16le")
    let (status, output) = try await run(
      "ffmpeg",
      ["-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "s16le", samplesPath])
    guard status == 0, let data = FileManager.default.contents(atPath: samplesPath), data.count >= 2 else {
      throw InspectionError("ffmpeg decoded no sound from \(path) (exit \(status)):\n\(output)")
    }
    let samples = stride(from: 0, to: data.count - 1, by: 2).map { index in
      Double(Int16(bitPattern: UInt16(data[index]) | UInt16(data[index + 1]) << 8)) / 32_768
    }
    return frequencies.map { amplitude(of: samples, at: $0, sampleRate: 48_000) }
  }

  /// The Goertzel algorithm: the amplitude of the sine of `frequency` hertz in `samples`.
  private static func amplitude(of samples: [Double], at frequency: Double, sampleRate: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var (previous, beforePrevious) = (0.0, 0.0)
    for sample in samples {
      (previous, beforePrevious) = (sample + coefficient * previous - beforePrevious, previous)
    }
    let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
    return 2 * power.squareRoot() / Double(samples.count)
  }
}
