/// A stream as ``HVTCameraController/startStreaming(_:)`` takes it and a preset declares it (`streams`):
/// where the camera goes (``target``), how it is encoded (``encoding``), and properties of the target's
/// branch elements (``tuning``) that replace or add to the engine's.
public struct HVTStream: Sendable, Hashable {
  /// Where the stream goes.
  public var target: HVTStreamTarget
  /// How it is encoded: the movies' encoding (sharing their encoder) unless it says otherwise.
  public var encoding: HVTStreamEncoding
  /// Elements of the target's branch with properties of their own, by factory: `mpegtsmux pcr-interval=360`,
  /// `srtsink latency=200`, `hlssink2 max-files=20`, `rtph264pay mtu=1200`… Each must name an element the
  /// branch has (``HVTPipelineModel/streamBranchFactories(for:)``); its properties are set on it after the
  /// engine's own.
  public var tuning: [HVTElementDescription]

  /// A stream to `target`, encoded as `encoding`, its branch's elements tuned by `tuning`.
  public init(target: HVTStreamTarget, encoding: HVTStreamEncoding = .movie, tuning: [HVTElementDescription] = []) {
    self.target = target
    self.encoding = encoding
    self.tuning = tuning
  }

  /// Why it cannot be streamed, or `nil`: the target's or the encoding's reason, or a tuned element the
  /// target's branch does not have.
  public var invalidReason: String? {
    target.invalidReason ?? encoding.invalidReason ?? untunable.first.map { untunableReason(tuning[$0]) }
  }

  /// The indices of the ``tuning`` elements the target's branch does not have.
  var untunable: [Int] {
    let factories = HVTPipelineModel.streamBranchFactories(for: target)
    return tuning.indices.filter { !factories.contains(tuning[$0].factory) }
  }

  /// Why `element` cannot be tuned: the branch has no element of its factory; the ones it has.
  func untunableReason(_ element: HVTElementDescription) -> String {
    "the \(target.kind) stream has no element '\(element.factory)' (its elements: "
      + "\(HVTPipelineModel.streamBranchFactories(for: target).joined(separator: ", ")))"
  }
}
