import Foundation
import HVTGStreamer
import HVTSupport

/// The format to ask of a camera: what `HVTCapsSelection` picks from the device's caps.
struct HVTCapsChoice: Sendable, Hashable, CustomStringConvertible {
  /// The frame size.
  var size: HVTFrameSize
  /// The frame rate.
  var frameRate: HVTFrameRate
  /// A raw format name such as `"YUY2"`, or `"MJPEG"` for `image/jpeg` (decoded with `jpegdec`).
  var format: String

  /// Whether the camera delivers JPEG frames that need `jpegdec`.
  var isMJPEG: Bool { format == "MJPEG" }

  /// The caps to put after the source, e.g. `video/x-raw,format=YUY2,width=640,height=480,framerate=30/1`.
  var caps: String {
    let media = isMJPEG ? "image/jpeg" : "video/x-raw,format=\(format)"
    return "\(media),width=\(size.width),height=\(size.height),framerate=\(frameRate)"
  }

  /// The caps, as in ``caps``.
  var description: String { caps }
}

/// Chooses what to ask of a camera, given what it offers: a pure function of the device's caps, the
/// requested size and the requested frame rate, with GStreamer's caps intersection and fixation doing
/// the matching (so ranges and lists in the device caps are handled as GStreamer handles them).
///
/// The rules, in order:
/// 1. Size: the requested one if the device offers it in any format; otherwise 1920x1080 if offered;
///    otherwise the offered size nearest the request, where a different aspect ratio counts twice as
///    much as the same ratio of areas (so a 16:9 request falls back to 1280x720 rather than to 1280x960).
///    `nil` requests the largest size at which some format reaches the frame rate (the largest of all
///    when none does), so that a webcam's 2 fps full-sensor mode is not taken for video.
/// 2. Format at that size: a raw format that reaches the requested frame rate (I420, NV12, YUY2 first,
///    then the others in the device's order); otherwise MJPEG if it reaches the rate; otherwise whichever
///    reaches the highest rate (raw on a tie).
/// 3. Frame rate: the offered rate nearest the request (over every structure the device lists for that
///    format and size).
///
/// Every choice is an intersection with the device's own caps, so it can always negotiate.
enum HVTCapsSelection {
  /// The raw formats tried first, in order: those `x264enc` and `jpegenc` take without conversion.
  static let preferredRawFormats = ["I420", "NV12", "YUY2"]

  /// Picks caps from `deviceCaps` (GStreamer caps syntax). Throws when the caps do not parse; returns
  /// `nil` when the device offers no raw or JPEG video at all.
  ///
  /// A `preferredFormat` (a raw format name, or `MJPEG`) is taken first when it reaches the frame rate at
  /// the chosen size; otherwise the rules above apply.
  ///
  /// The choice is a function of its inputs alone, and is remembered (``remembered``): parsing and
  /// intersecting a camera's caps — hundreds of structures for vivid, a capture card or a UVC camera with
  /// many sizes — takes tens of milliseconds on a slow machine, on every start.
  static func choose(
    deviceCaps: String, size requested: HVTFrameSize?, frameRate: HVTFrameRate, preferredFormat: String? = nil
  ) throws -> HVTCapsChoice? {
    let question = Question(
      deviceCaps: deviceCaps, size: requested, frameRate: frameRate, preferredFormat: preferredFormat)
    if let answer = remembered.withLock({ $0[question] }) { return answer }
    let answer = try answer(question)
    remembered.withLock { remembered in
      if remembered.count >= rememberedChoices { remembered.removeAll() }
      remembered[question] = answer
    }
    return answer
  }

  /// What ``choose(deviceCaps:size:frameRate:preferredFormat:)`` is asked.
  private struct Question: Hashable {
    var deviceCaps: String
    var size: HVTFrameSize?
    var frameRate: HVTFrameRate
    var preferredFormat: String?
  }

  /// The choices made so far in this process, by what was asked (at most ``rememberedChoices``: all are
  /// forgotten when that many are held).
  private static let remembered = Locked<[Question: HVTCapsChoice?]>([:])
  /// How many choices are remembered at most.
  private static let rememberedChoices = 32

  /// The choice for `question`, worked out.
  private static func answer(_ question: Question) throws -> HVTCapsChoice? {
    let (deviceCaps, requested, frameRate, preferredFormat) = (
      question.deviceCaps, question.size, question.frameRate, question.preferredFormat
    )
    let caps: Caps
    do { caps = try Caps(deviceCaps) } catch {
      throw HVTCameraError.pipelineSetupFailed(.invalidCaps(deviceCaps))
    }
    let structures = caps.structures.filter { $0.name == "video/x-raw" || $0.name == "image/jpeg" }
    guard !structures.isEmpty else { return nil }
    let size: HVTFrameSize
    if let requested {
      size = chooseSize(requested, offered: structures)
    } else {
      let sizes = offeredSizes(structures)
      size =
        try sizes.first {
          try formats(in: caps, structures, at: $0, frameRate: frameRate).contains { $0.rate >= frameRate }
        }
        ?? sizes.first ?? HVTFrameSize(width: 1920, height: 1080)
    }
    let candidates = try formats(in: caps, structures, at: size, frameRate: frameRate)
    let preferred = candidates.first { $0.format == preferredFormat && $0.rate >= frameRate }
    let meeting = preferred ?? candidates.first { $0.rate >= frameRate }
    let best = meeting ?? candidates.max { $0.rate < $1.rate }  // max keeps the first of equals: raw before MJPEG
    return best.map { HVTCapsChoice(size: size, frameRate: $0.rate, format: $0.format) }
  }

  /// The formats offered at `size`, raw ones first (preferred ones, then the others in the device's order)
  /// and MJPEG last, each with the offered rate nearest `frameRate`: GStreamer's intersection of the device
  /// caps with the format and size, each resulting structure fixated to the nearest rate, the nearest of
  /// those kept (the faster on a tie).
  static func formats(in caps: Caps, _ structures: [CapsStructure], at size: HVTFrameSize, frameRate: HVTFrameRate)
    throws -> [(format: String, rate: HVTFrameRate)]
  {
    var candidates: [(format: String, rate: HVTFrameRate)] = []
    for format in rawFormats(in: structures, at: size) + ["MJPEG"] {
      let media = format == "MJPEG" ? "image/jpeg" : "video/x-raw,format=\(format)"
      let matching = caps.intersection(try Caps("\(media),width=\(size.width),height=\(size.height)"))
      let rates = matching.structures.compactMap { structure -> HVTFrameRate? in
        let fixed = structure.fixated(
          nearestFraction: "framerate", numerator: frameRate.numerator, denominator: frameRate.denominator)
        return fixed.fraction("framerate").map { HVTFrameRate($0.numerator, $0.denominator) }
      }
      func gap(_ rate: HVTFrameRate) -> Double { abs(rate.framesPerSecond - frameRate.framesPerSecond) }
      guard let nearest = rates.min(by: { gap($0) < gap($1) || (gap($0) == gap($1) && $0 > $1) }) else { continue }
      candidates.append((format, nearest))
    }
    return candidates
  }

  /// The sizes the structures offer (a range counts with its largest size), largest first, each once.
  static func offeredSizes(_ structures: [CapsStructure]) -> [HVTFrameSize] {
    let sizes = structures.compactMap { structure -> HVTFrameSize? in
      guard let width = structure.intRange("width"), let height = structure.intRange("height") else { return nil }
      return HVTFrameSize(width: width.upperBound, height: height.upperBound)
    }
    return Set(sizes).sorted(by: >)
  }

  /// The size to use for a request: the request itself, else 1920x1080, else the nearest offered size.
  static func chooseSize(_ requested: HVTFrameSize, offered structures: [CapsStructure]) -> HVTFrameSize {
    let ranges = structures.compactMap { structure -> (ClosedRange<Int>, ClosedRange<Int>)? in
      guard let width = structure.intRange("width"), let height = structure.intRange("height") else { return nil }
      return (width, height)
    }
    func offers(_ size: HVTFrameSize) -> Bool {
      ranges.contains { $0.0.contains(size.width) && $0.1.contains(size.height) }
    }
    if offers(requested) { return requested }
    let fullHD = HVTFrameSize(width: 1920, height: 1080)
    if offers(fullHD) { return fullHD }
    let candidates = ranges.map {
      HVTFrameSize(
        width: min(max(requested.width, $0.0.lowerBound), $0.0.upperBound),
        height: min(max(requested.height, $0.1.lowerBound), $0.1.upperBound))
    }
    return candidates.min { distance($0, requested) < distance($1, requested) } ?? requested
  }

  /// How far a size is from the request: the ratio of areas (in either direction, in powers of two), plus
  /// twice the ratio of aspect ratios (likewise), so that a size of the requested shape is preferred.
  static func distance(_ size: HVTFrameSize, _ target: HVTFrameSize) -> Double {
    func aspect(_ size: HVTFrameSize) -> Double { Double(max(1, size.width)) / Double(max(1, size.height)) }
    let area = Double(max(1, size.area)) / Double(max(1, target.area))
    return abs(log2(area)) + 2 * abs(log2(aspect(size) / aspect(target)))
  }

  /// The raw formats offered at `size`, preferred ones first, then the rest in the device's order.
  static func rawFormats(in structures: [CapsStructure], at size: HVTFrameSize) -> [String] {
    var offered: [String] = []
    for structure in structures where structure.name == "video/x-raw" {
      guard structure.intRange("width")?.contains(size.width) ?? false,
        structure.intRange("height")?.contains(size.height) ?? false
      else { continue }
      for format in structure.strings("format") where !offered.contains(format) {
        offered.append(format)
      }
    }
    return preferredRawFormats.filter(offered.contains) + offered.filter { !preferredRawFormats.contains($0) }
  }
}
