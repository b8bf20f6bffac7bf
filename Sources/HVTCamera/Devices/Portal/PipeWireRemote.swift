import HVTGLib
import HVTGStreamer

/// A connection to PipeWire that the Camera portal opened (`OpenPipeWireRemote`'s file descriptor),
/// which offers the cameras the app may use and nothing else.
///
/// It owns the descriptor: every camera listed through it (``HVTCameraDeviceInfo``) and every pipeline
/// model built for one holds it, and it is closed when the last of them is gone — a dismissed camera's
/// session, a listing the app let go of. `pipewiresrc fd=N` duplicates the descriptor when it starts, so a
/// running camera does not depend on it.
struct PipeWireRemote: Sendable, Hashable {
  /// The descriptor, closed with its last owner.
  let descriptor: OwnedFileDescriptor

  /// The descriptor's number, for `pipewiresrc fd=` and `pipewiredeviceprovider fd=`.
  var fd: Int32 { descriptor.rawValue }

  /// The cameras the remote offers: GStreamer's PipeWire device provider (`pipewiredeviceprovider`)
  /// with `fd` set to this remote, asked once for its `Video/Source` devices
  /// (`DeviceProvider.pipeWireCameras(fd:)`, which knows how each PipeWire version must be asked).
  func devices() throws(HVTCameraError) -> [MonitoredDevice] {
    do {
      return try DeviceProvider.pipeWireCameras(fd: fd).map(MonitoredDevice.init)
    } catch {
      throw HVTCameraError.pipelineSetupFailed(error)
    }
  }
}
