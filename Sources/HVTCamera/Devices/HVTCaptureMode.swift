import Foundation
import HVTGStreamer

/// One way a camera can capture: a format at one size (or a range of sizes) and the frame rates it
/// offers there, e.g. `MJPEG 1920x1080 @ 30, 24, 20, 15, 10, 7.5, 5 fps`.
///
/// ``modes(in:)`` computes them from a device's caps; ``HVTCameraDeviceInfo/modes`` holds a camera's.
public struct HVTCaptureMode: Sendable, Hashable, CustomStringConvertible {
  /// The frame rates of a mode.
  public enum FrameRates: Sendable, Hashable {
    /// These rates, fastest first (empty when the device does not say).
    case discrete([HVTFrameRate])
    /// Any rate from `min` to `max`.
    case range(min: HVTFrameRate, max: HVTFrameRate)
  }

  /// The format: a raw format name such as `"YUY2"` or `"NV12"`, `"MJPEG"` for `image/jpeg`, `"H264"`,
  /// `"H265"`, `"VP8"`, `"VP9"`, `"bayer BGGR"`, or the media type for anything else.
  public var format: String
  /// The widths offered: one value for a fixed size.
  public var width: ClosedRange<Int>
  /// The heights offered: one value for a fixed size.
  public var height: ClosedRange<Int>
  /// The frame rates offered at this size.
  public var frameRates: FrameRates

  /// Creates a mode.
  public init(format: String, width: ClosedRange<Int>, height: ClosedRange<Int>, frameRates: FrameRates) {
    self.format = format
    self.width = width
    self.height = height
    self.frameRates = frameRates
  }

  /// The size, when the mode has one fixed size; `nil` for a range of sizes.
  public var size: HVTFrameSize? {
    width.count == 1 && height.count == 1 ? HVTFrameSize(width: width.lowerBound, height: height.lowerBound) : nil
  }

  /// The largest size the mode offers.
  public var largestSize: HVTFrameSize { HVTFrameSize(width: width.upperBound, height: height.upperBound) }

  /// The fastest rate the mode offers, if it says.
  public var fastestRate: HVTFrameRate? {
    switch frameRates {
    case .discrete(let rates): rates.max()
    case .range(_, let max): max
    }
  }

  /// The sizes as text: `1920x1080`, or `16x16 to 3840x2160` for a range.
  public var sizeText: String {
    size.map(\.description)
      ?? "\(HVTFrameSize(width: width.lowerBound, height: height.lowerBound)) to \(largestSize)"
  }

  /// The frame rates as text: `30, 15, 7.5 fps`, `1 to 30 fps`, `variable rate` (`0/1`), or `any rate` when
  /// the device does not say.
  public var frameRatesText: String {
    switch frameRates {
    case .discrete(let rates) where rates.isEmpty: "any rate"
    case .discrete(let rates) where rates.allSatisfy({ $0.numerator == 0 }): "variable rate"
    case .discrete(let rates): rates.map(Self.text).joined(separator: ", ") + " fps"
    case .range(let min, let max): "\(Self.text(min)) to \(Self.text(max)) fps"
    }
  }

  /// One readable line: `MJPEG 1920x1080 @ 30, 15 fps`.
  public var description: String { "\(format) \(sizeText) @ \(frameRatesText)" }

  /// A frame rate as a number of frames per second: `30`, `7.5`, `29.97`; `variable` for `0/1`.
  static func text(_ rate: HVTFrameRate) -> String {
    if rate.numerator == 0 { return "variable" }
    if rate.numerator % rate.denominator == 0 { return "\(rate.numerator / rate.denominator)" }
    var text = String(format: "%.2f", rate.framesPerSecond)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }

  /// The modes a device's caps offer, grouped per format and size: a pure function of the caps text.
  ///
  /// Each structure of the caps contributes one mode per format and size it allows: fixed values and
  /// lists of formats, widths and heights are expanded (a list of widths with a list of heights gives
  /// every combination, as caps mean); a range of sizes stays one mode. Frame rates may be fixed, a list
  /// or a range. Modes of the same format and size from several structures are merged: their rates are
  /// united (a range widened to cover every rate). Formats keep the order the caps first name them;
  /// within a format, ranges come first, then fixed sizes from the largest (by area, then width); rates
  /// are listed fastest first. Structures without a width or height are skipped.
  ///
  /// Throws ``HVTCameraError/pipelineSetupFailed(_:)`` when the caps do not parse.
  public static func modes(in caps: String) throws -> [HVTCaptureMode] {
    let parsed: Caps
    do { parsed = try Caps(caps) } catch {
      throw HVTCameraError.pipelineSetupFailed(.invalidCaps(caps))
    }
    var formatOrder: [String] = []
    var modes: [Key: FrameRates] = [:]
    for structure in parsed.structures {
      guard let widths = structure.intValues("width").map(spans), let heights = structure.intValues("height").map(spans)
      else { continue }
      let rates = rates(structure.fractionValues("framerate"))
      for format in formatNames(structure) {
        if !formatOrder.contains(format) { formatOrder.append(format) }
        for width in widths {
          for height in heights {
            let key = Key(format: format, width: width, height: height)
            modes[key] = modes[key].map { merge($0, rates) } ?? rates
          }
        }
      }
    }
    return modes.map {
      HVTCaptureMode(format: $0.key.format, width: $0.key.width, height: $0.key.height, frameRates: $0.value)
    }
    .sorted { lhs, rhs in
      let (left, right) = (formatOrder.firstIndex(of: lhs.format)!, formatOrder.firstIndex(of: rhs.format)!)
      if left != right { return left < right }
      if (lhs.size == nil) != (rhs.size == nil) { return lhs.size == nil }
      if lhs.largestSize != rhs.largestSize { return lhs.largestSize > rhs.largestSize }
      return (lhs.width.lowerBound, lhs.height.lowerBound) > (rhs.width.lowerBound, rhs.height.lowerBound)
    }
  }

  /// What identifies a mode while grouping.
  private struct Key: Hashable {
    let format: String
    let width: ClosedRange<Int>
    let height: ClosedRange<Int>
  }

  /// The format names a structure stands for (one per entry of a format list).
  static func formatNames(_ structure: CapsStructure) -> [String] {
    let formats = structure.strings("format")
    switch structure.name {
    case "video/x-raw": return formats.isEmpty ? ["raw"] : formats
    case "video/x-bayer": return formats.isEmpty ? ["bayer"] : formats.map { "bayer \($0)" }
    case "image/jpeg": return ["MJPEG"]
    case "video/x-h264": return ["H264"]
    case "video/x-h265": return ["H265"]
    case "video/x-vp8": return ["VP8"]
    case "video/x-vp9": return ["VP9"]
    case let other: return [other]
    }
  }

  /// The sizes of one dimension: each fixed or listed value alone, or the whole range.
  private static func spans(_ values: CapsIntValues) -> [ClosedRange<Int>] {
    switch values {
    case .fixed(let value): [value...value]
    case .list(let values): values.map { $0...$0 }
    case .range(let bounds, _): [bounds]
    }
  }

  /// The frame rates of a structure's `framerate` field.
  private static func rates(_ values: CapsFractionValues?) -> FrameRates {
    func rate(_ fraction: Fraction) -> HVTFrameRate { HVTFrameRate(fraction.numerator, fraction.denominator) }
    switch values {
    case nil: return .discrete([])
    case .fixed(let value): return .discrete([rate(value)])
    case .list(let values): return .discrete(ordered(values.map(rate)))
    case .range(let min, let max): return .range(min: rate(min), max: rate(max))
    }
  }

  /// The union of two sets of rates: a list when both are lists, else a range covering both.
  private static func merge(_ lhs: FrameRates, _ rhs: FrameRates) -> FrameRates {
    switch (lhs, rhs) {
    case (.discrete(let left), .discrete(let right)):
      return .discrete(ordered(left + right))
    default:
      let all = [lhs, rhs].flatMap { rates -> [HVTFrameRate] in
        switch rates {
        case .discrete(let values): values
        case .range(let min, let max): [min, max]
        }
      }
      guard let min = all.min(), let max = all.max() else { return lhs }
      return .range(min: min, max: max)
    }
  }

  /// Rates without repeats (equal values count once: `30/1` and `60/2`), fastest first.
  private static func ordered(_ rates: [HVTFrameRate]) -> [HVTFrameRate] {
    var result: [HVTFrameRate] = []
    for rate in rates.sorted(by: >) where !result.contains(where: { !($0 < rate) && !(rate < $0) }) {
      result.append(rate)
    }
    return result
  }
}
