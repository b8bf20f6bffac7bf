extension HVTStream {
  /// Why it cannot be streamed, or `nil`: the first of its issues (``issues(in:)``): the target's or the
  /// encoding's reason, a tuned element the target's branch does not have, or a server on the network that
  /// anyone could watch without having been allowed to.
  public var invalidReason: String? { Self.issues(in: [self]).first?.reason }

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
