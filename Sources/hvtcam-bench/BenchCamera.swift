import HVTCamera
import HVTGStreamer

/// The camera a run measures on, given to every engine alike: the simulated camera (a live
/// `videotestsrc`, I420 at 30 fps), or a V4L2 node — vivid's in the VM tier — in the format and at the
/// rate it offers at the size measured.
struct BenchCamera: Sendable {
  /// The V4L2 node; `nil` for the simulated camera.
  var node: String?
  /// The raw format the engines take from it.
  var format: String
  /// Frames per second at the size measured.
  var frameRate: Int

  /// The simulated camera.
  static let simulated = BenchCamera(node: nil, format: "I420", frameRate: 30)

  /// A V4L2 node at 640x480, in vivid's YUY2 at 25 fps (the highest rate vivid offers at that size).
  static func vivid(_ node: String) -> BenchCamera { BenchCamera(node: node, format: "YUY2", frameRate: 25) }

  /// The controller's source for it.
  var controllerSource: HVTCameraSource { node.map { .device($0) } ?? .simulated }

  /// A new source element for it, named `camera`: `v4l2src device=…` or `videotestsrc is-live=true
  /// pattern=smpte`.
  func makeSource() throws -> Element {
    if let node {
      let source = try Element(factory: "v4l2src", name: "camera")
      try source.setProperty("device", fromString: node)
      return source
    }
    let source = try Element(factory: "videotestsrc", name: "camera")
    try source.setProperty("is-live", fromString: "true")
    try source.setProperty("pattern", fromString: "smpte")
    return source
  }

  /// Caps of `size` in its format and at its rate.
  func caps(_ size: HVTFrameSize) -> String {
    "video/x-raw,format=\(format),width=\(size.width),height=\(size.height),framerate=\(frameRate)/1"
  }

  /// What the report says it is.
  var description: String {
    node.map { "V4L2 \($0) (\(format) at \(frameRate) fps)" } ?? "the simulated camera"
  }
}
