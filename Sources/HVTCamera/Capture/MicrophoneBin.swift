import Foundation
import HVTGStreamer

/// A microphone's chain (``HVTPipelineModel/Audio/source``) in a bin of its own, exposed as the bin's
/// `src` pad, which is opened outside the camera pipeline (``open()``) before it joins it: one that
/// cannot open costs the movies their sound, never the camera.
final class MicrophoneBin: Sendable {
  /// The bin (`GstBin`), not yet in a pipeline.
  let bin: Bin
  /// The microphone's own element's source pad (a ghost pad for `autoaudiosrc`), where its caps leave it.
  private let format: Pad

  /// How long ``open()`` waits for the microphone to agree on a format, and a recording for its first
  /// buffer once it plays: bounds for a device that is stuck, not for a slow one (a microphone served by
  /// `pipewire-pulse`, with three busy threads per core, agreed on its format 25 ms after it opened).
  static let startTimeout = 5.0

  /// Builds the bin `name` from `source`, the microphone's element first and the queue that ends the
  /// chain last.
  init(name: String, source: [HVTElementDescription]) throws {
    bin = Bin(name: name)
    let chain = try ElementChain(source, in: bin)
    guard let output = chain.last.staticPad("src"), let format = chain.first.staticPad("src") else {
      throw HVTCameraError.pipelineSetupFailed(.missingPad(element: chain.last.path, pad: "src"))
    }
    try bin.addGhostPad("src", target: output)
    self.format = format
  }

  /// The bin's object path.
  var path: String { bin.path }

  /// Opens the microphone: sets the bin to PAUSED, where a live source has its device open but delivers
  /// nothing yet, and waits (at most ``startTimeout``) until its streaming thread has agreed on a format
  /// with the converters behind it (a caps event leaves the microphone's element). Only then may the bin
  /// be linked: `pulsesrc` (1.22 and since) takes the reconfigure event a link sends upstream as done
  /// with, clearing the flag its first negotiation waits for, so that one linked before its streaming
  /// thread's first turn (a loaded machine) never negotiates and never delivers. Returns why the
  /// microphone did not open, the bin back in NULL, or `nil`. Takes as long as the device needs: call it
  /// off the controller queue.
  func open() -> String? {
    let negotiated = DispatchSemaphore(value: 0)
    let probe = format.addProbe(.eventDownstream) { _, info in
      if case .caps = info.event { negotiated.signal() }
      return .ok
    }
    defer { format.removeProbe(probe) }
    guard bin.setState(.paused) != .failure else {
      Teardown.stop(bin, what: "the microphone")
      return "could not be opened"
    }
    guard format.currentCaps != nil || negotiated.wait(timeout: .now() + Self.startTimeout) == .success else {
      Teardown.stop(bin, what: "the microphone")
      return "agreed on no format within \(Self.startTimeout) s"
    }
    return nil
  }
}
