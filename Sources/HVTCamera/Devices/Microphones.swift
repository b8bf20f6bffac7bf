import HVTGStreamer

/// Where a movie's sound comes from.
enum Microphones {
  /// The device providers asked for microphones, those installed: PulseAudio's (which PipeWire's
  /// `pipewire-pulse` also answers, on desktops that run PipeWire) and ALSA's.
  ///
  /// Not PipeWire's own: a `GstDeviceMonitor` of `Audio/Source` shares the process's running PipeWire
  /// provider with the cameras' monitor, whose hot-plug then went unheard, and a PipeWire provider
  /// probed on an instance of its own (0.3.65) keeps a registry listener after it is released, which
  /// crashed the process when a camera left later (both seen with the PipeWire test camera).
  static let providers = ["pulsedeviceprovider", "alsadeviceprovider"]

  /// The names of the microphones the ``providers`` list (`Audio/Source` devices), each probed on an
  /// instance of its own (``DeviceProvider/probe(_:properties:deviceClass:)``), leaving out PulseAudio's
  /// monitors of outputs (`device.class=monitor`), which record what plays, not a room.
  static func listed() -> [String] {
    providers.flatMap { (try? DeviceProvider.probe($0, deviceClass: "Audio/Source")) ?? [] }
      .filter { $0.properties["device.class"] != "monitor" }
      .map(\.displayName)
  }

  /// The sound a camera's movies get: none unless `capturesAudio`; the preset's `audio.source`; the
  /// simulated microphone for the simulated camera; else the default microphone (`autoaudiosrc`) when
  /// a provider lists one. `autoaudiosrc` itself records silence when it finds no working
  /// source, which is why a microphone must be listed first.
  static func request(capturesAudio: Bool, camera: HVTCameraDeviceInfo, preset: HVTPreset)
    -> HVTPipelineModel.AudioRequest
  {
    guard capturesAudio else { return .off }
    if let source = preset.audioSource { return .from(source) }
    if camera.isSimulated { return .from(HVTPipelineModel.simulatedMicrophone) }
    guard !listed().isEmpty else {
      return .unavailable("no microphone: no GStreamer device provider lists an Audio/Source device")
    }
    return .from(HVTPipelineModel.defaultMicrophone)
  }
}
