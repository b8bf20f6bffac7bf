import Foundation
import HVTGStreamer

/// Where a movie's sound comes from.
enum Microphones {
  /// The device providers asked for microphones, those installed and with something to ask: PulseAudio's
  /// (which PipeWire's `pipewire-pulse` also answers, on desktops that run PipeWire) when a server's
  /// socket is there, and ALSA's when a capture device node is.
  ///
  /// Not PipeWire's own: a `GstDeviceMonitor` of `Audio/Source` shares the process's running PipeWire
  /// provider with the cameras' monitor, whose hot-plug then went unheard, and a PipeWire provider
  /// probed on an instance of its own (0.3.65) keeps a registry listener after it is released, which
  /// crashed the process when a camera left later (both seen with the PipeWire test camera). And not a
  /// provider with nothing to ask: PulseAudio's, with no server, took 15 s a probe in the test VM.
  static func providers(environment: [String: String]) -> [String] {
    var providers: [String] = []
    if pulseServerIsThere(environment: environment) { providers.append("pulsedeviceprovider") }
    if alsaCaptureNodeIsThere() { providers.append("alsadeviceprovider") }
    return providers
  }

  /// Whether a PulseAudio server can be reached without waiting: `PULSE_SERVER` names one, or its
  /// native socket is in `$XDG_RUNTIME_DIR/pulse` (else `/run/user/UID/pulse`).
  static func pulseServerIsThere(environment: [String: String]) -> Bool {
    if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
    let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
    return FileManager.default.fileExists(atPath: "\(runtime)/pulse/native")
  }

  /// Whether `/dev/snd` has an ALSA capture node (`pcmC*D*c`).
  static func alsaCaptureNodeIsThere() -> Bool {
    let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? []
    return nodes.contains { $0.hasPrefix("pcmC") && $0.hasSuffix("c") }
  }

  /// The microphones the ``providers(environment:)`` list (`Audio/Source` devices), each probed on an
  /// instance of its own (`DeviceProvider.devices(_:properties:deviceClass:listing:)`), leaving out PulseAudio's
  /// monitors of outputs (`device.class=monitor`), which record what plays, not a room. Each comes with
  /// the source element its provider makes for it, and that element's `device`.
  static func available(environment: [String: String] = ProcessInfo.processInfo.environment) -> [HVTMicrophone] {
    providers(environment: environment).flatMap { provider in
      // `pulsedeviceprovider` lists PulseAudio's (API `pulse`), `alsadeviceprovider` ALSA's.
      let api = provider.replacingOccurrences(of: "deviceprovider", with: "")
      return ((try? DeviceProvider.devices(provider, deviceClass: "Audio/Source")) ?? [])
        .filter { $0.properties["device.class"] != "monitor" }
        .compactMap { device -> HVTMicrophone? in
          guard let element = device.makeElement(), let factory = element.factoryName else { return nil }
          let address = (try? element.propertyString("device")).flatMap { $0.isEmpty ? nil : $0 }
          let source = address.map { HVTElementDescription(factory, ["device": $0]) } ?? HVTElementDescription(factory)
          return HVTMicrophone(name: device.displayName, api: api, source: source)
        }
    }
  }

  /// The sound a camera's movies get: none unless `capturesAudio`; the app's `microphone`; the preset's
  /// `audio.source`; the simulated microphone for the simulated camera; else the default microphone
  /// (`autoaudiosrc`) when a provider lists one. `autoaudiosrc` itself records silence when it finds no
  /// working source, which is why a microphone must be listed first.
  static func request(
    capturesAudio: Bool, microphone: HVTMicrophone? = nil, camera: HVTCameraDeviceInfo, preset: HVTPreset
  ) -> HVTPipelineModel.AudioRequest {
    guard capturesAudio else { return .off }
    if let microphone { return .from(microphone.source) }
    if let source = preset.audioSource { return .from(source) }
    if camera.isSimulated { return .from(HVTPipelineModel.simulatedMicrophone) }
    guard !available().isEmpty else {
      return .unavailable("no microphone: no PulseAudio server runs and no ALSA capture device lists one")
    }
    return .from(HVTPipelineModel.defaultMicrophone)
  }
}
