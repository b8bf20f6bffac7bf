/// Something wrong with one of the streams run together (``HVTStream/issues(in:)``): which one, what of
/// it, and why.
public struct HVTStreamIssue: Sendable, Hashable, CustomStringConvertible {
  /// What of a stream an issue is about.
  public enum Field: Sendable, Hashable {
    /// Its target (or who may reach it: credentials, ``HVTStream/allowsAnonymous``).
    case target
    /// Its encoding.
    case encoding
    /// Its tuning's element at this index.
    case tuning(Int)
  }

  /// The stream's index in the list checked.
  public var stream: Int
  /// What of it is wrong.
  public var field: Field
  /// Why, in words that name no secret.
  public var reason: String

  /// The reason.
  public var description: String { reason }
}

extension HVTStream {
  /// Every issue of `streams` run together, as ``HVTCameraController/startStreaming(_:)``, `hvtcam
  /// stream` and a preset's checking (`hvtcam presets validate`) all find them: each stream's own (its
  /// target's ``HVTStreamTarget/invalidReason``, its encoding's, a tuned element its branch does not
  /// have, a server on the network without credentials or ``allowsAnonymous``), and, for one without,
  /// one that cannot run beside an earlier stream (``HVTStreamTarget/conflict(with:)``: the same target
  /// twice, two RTSP servers or SRT listeners on one port, two HLS streams into one folder).
  public static func issues(in streams: [HVTStream]) -> [HVTStreamIssue] {
    streams.indices.flatMap { index in
      let own = streams[index].ownIssues(index)
      guard own.isEmpty else { return own }
      let conflict = streams[..<index].lazy.compactMap { streams[index].target.conflict(with: $0.target) }.first
      return conflict.map { [HVTStreamIssue(stream: index, field: .target, reason: $0)] } ?? []
    }
  }

  /// The stream's own issues, as the `index`th of those checked.
  private func ownIssues(_ index: Int) -> [HVTStreamIssue] {
    if let reason = target.invalidReason { return [HVTStreamIssue(stream: index, field: .target, reason: reason)] }
    var issues: [HVTStreamIssue] = []
    if let reason = encoding.invalidReason {
      issues.append(HVTStreamIssue(stream: index, field: .encoding, reason: reason))
    }
    for element in untunable {
      issues.append(HVTStreamIssue(stream: index, field: .tuning(element), reason: untunableReason(tuning[element])))
    }
    if let reason = openServerReason { issues.append(HVTStreamIssue(stream: index, field: .target, reason: reason)) }
    return issues
  }
}
