import HVTGStreamer

extension HVTCameraController {
  /// The microphone movies record from, one of ``availableMicrophones()``, or `nil` (the default) for the
  /// choice ``capturesAudio`` describes. It takes the place of the preset's `audio.source` and of the
  /// simulated microphone. A microphone that cannot be opened costs the movies their sound, as any does.
  /// Changing it while presented restarts the camera, as ``videoBitRate`` does.
  public var microphone: HVTMicrophone? {
    get { read(\.settings.microphone) }
    set { change(\.microphone, to: newValue, then: .restart) }
  }

  /// The microphones there are, as GStreamer's PulseAudio and ALSA device providers list them
  /// (`Audio/Source` devices, without PulseAudio's monitors of outputs), each with the source element
  /// that records from it. Probes the providers that have something to ask (a PulseAudio server's
  /// socket, an ALSA capture node), which takes a moment: call it off the main thread.
  public static func availableMicrophones() -> [HVTMicrophone] {
    GStreamer.initialize()
    return Microphones.available()
  }
}
