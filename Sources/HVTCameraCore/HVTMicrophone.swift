/// A microphone a movie's sound can come from (``HVTCameraController/microphone``), as GStreamer's
/// PulseAudio or ALSA device provider lists it (``HVTCameraController/availableMicrophones()``). On
/// desktops that run PipeWire, its `pipewire-pulse` answers for the PulseAudio provider, so PipeWire's
/// microphones are listed too.
public struct HVTMicrophone: Sendable, Hashable, CustomStringConvertible {
  /// The device's name, e.g. `Built-in Audio Analog Stereo`: what `hvtcam --microphone` takes.
  public var name: String
  /// The provider's API, e.g. `pulse` or `alsa`.
  public var api: String
  /// The source element that records from it, as the provider makes it (`gst_device_create_element`),
  /// e.g. `pulsesrc device=alsa_input.pci-0000_00_1f.3.analog-stereo`.
  public var source: HVTElementDescription

  /// Creates a microphone.
  public init(name: String, api: String, source: HVTElementDescription) {
    (self.name, self.api, self.source) = (name, api, source)
  }

  /// `Built-in Audio Analog Stereo (pulse)`.
  public var description: String { "\(name) (\(api))" }
}
