import HVTGStreamer
import HVTSupport

/// The `Video/Source` devices of the process's `GstDeviceMonitor` (``DeviceMonitor/devices(ofClass:)``)
/// as values, kept from one listing to the next until a device comes or goes: turning a camera's caps
/// into text — hundreds of structures for vivid, a capture card or a UVC camera with many sizes — takes
/// tens of milliseconds on a slow machine, and every start lists the cameras.
///
/// A ``DeviceWatcher`` on the same monitor forgets the list at each change it reports; a listing made
/// while a change arrived is not kept.
final class MonitoredDeviceList: Sendable {
  private struct State {
    /// The list, while no device came or went since it was made.
    var devices: [MonitoredDevice]?
    /// How many changes the watcher reported.
    var changes = 0
    /// The watcher, once the monitor started; `nil` while it cannot (nothing is kept then).
    var watcher: DeviceWatcher?
  }

  /// The process's list.
  static let shared = MonitoredDeviceList()

  /// The device class listed.
  private static let deviceClass = "Video/Source"

  private let state = Locked(State())

  /// The monitor's devices now: the kept list, or a new listing (kept while no device comes or goes).
  func devices() -> [MonitoredDevice] {
    watch()
    let (kept, changes) = state.withLock { ($0.devices, $0.watcher == nil ? nil : $0.changes) }
    if let kept { return kept }
    let listed = DeviceMonitor.devices(ofClass: Self.deviceClass).map(MonitoredDevice.init)
    state.withLock { state in
      if let changes, state.changes == changes { state.devices = listed }
    }
    return listed
  }

  /// Subscribes to the monitor's changes, once it can start. The watcher is made outside the lock: the
  /// monitor's providers announce the devices they find from their own threads while it starts, and
  /// those announcements reach ``forget()``.
  private func watch() {
    guard state.withLock({ $0.watcher == nil }) else { return }
    let watcher = DeviceWatcher(deviceClass: Self.deviceClass) { [weak self] _ in self?.forget() }
    // Of two made at once, the first kept is the one; the other unsubscribes as it goes.
    state.withLock { state in
      if state.watcher == nil {
        state.watcher = watcher
        state.devices = nil
      }
    }
  }

  /// A device came or went: the next listing asks the monitor again.
  private func forget() {
    state.withLock { state in
      state.devices = nil
      state.changes += 1
    }
  }
}
