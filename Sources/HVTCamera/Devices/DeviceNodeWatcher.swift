import Dispatch
import Foundation
import Glibc
import HVTSupport

/// Watches `/dev` for V4L2 capture nodes coming and going, with inotify: hot-plug where there is no udev
/// (a container, a minimal system), whose events `GstDeviceMonitor` would need. The kernel's devtmpfs
/// still creates and removes the nodes; each new one is asked `VIDIOC_QUERYCAP` and reported only when
/// it captures video. Stops when released. (`@unchecked`: the dispatch source, set up once in `init`, is
/// only cancelled in `deinit`.)
final class DeviceNodeWatcher: @unchecked Sendable {
  private let source: any DispatchSourceRead

  /// Whether udev runs here (its control socket exists), so that `GstDeviceMonitor` sees hot-plug.
  static func udevIsRunning() -> Bool {
    FileManager.default.fileExists(atPath: "/run/udev/control")
  }

  /// Starts watching `folder` (`/dev`); `handler` runs on a queue of the watcher's own for each capture
  /// node that appears or disappears after now. Returns `nil` when inotify cannot watch the folder.
  /// Wraps `inotify_init1` and `inotify_add_watch` (`IN_CREATE | IN_DELETE`).
  init?(
    folder: String = V4L2Discovery.deviceFolder,
    handler: @escaping @Sendable (HVTCameraController.DeviceChange) -> Void
  ) {
    let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    guard inotify_add_watch(descriptor, folder, UInt32(IN_CREATE | IN_DELETE)) >= 0 else {
      close(descriptor)
      return nil
    }
    // The names of the capture nodes present, so that a removal can say which camera went.
    let present = Locked(
      Dictionary(
        V4L2Discovery.videoNodes(in: folder).compactMap { path in
          V4L2Discovery.captureIdentity(at: path).map { (path, $0.card) }
        }, uniquingKeysWith: { first, _ in first }))
    source = DispatchSource.makeReadSource(
      fileDescriptor: descriptor, queue: DispatchQueue(label: "hvtcamera.device-nodes", qos: .utility))
    source.setEventHandler {
      for (name, created) in Self.readEvents(descriptor) where V4L2Discovery.isVideoNodeName(name) {
        let path = "\(folder)/\(name)"
        if created {
          guard let identity = V4L2Discovery.captureIdentity(at: path) else { continue }
          present.withLock { $0[path] = identity.card }
          handler(.connected(name: identity.card, path: path))
        } else if let card = present.withLock({ $0.removeValue(forKey: path) }) {
          handler(.disconnected(name: card, path: path))
        }
      }
    }
    source.setCancelHandler { close(descriptor) }
    source.resume()
  }

  deinit {
    source.cancel()
  }

  /// The events waiting on an inotify descriptor: each entry's name and whether it was created (else
  /// deleted). Each `inotify_event` is followed by its NUL-padded name.
  private static func readEvents(_ descriptor: Int32) -> [(name: String, created: Bool)] {
    var events: [(String, Bool)] = []
    let capacity = 16 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
    var buffer = [UInt8](repeating: 0, count: capacity)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, capacity) }
      guard count > 0 else { break }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= count {
        let (mask, length) = buffer.withUnsafeBytes { bytes in
          let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.mask, Int(event.len))
        }
        let nameStart = offset + MemoryLayout<inotify_event>.size
        let name = String(decoding: buffer[nameStart..<nameStart + length].prefix { $0 != 0 }, as: UTF8.self)
        events.append((name, mask & UInt32(IN_CREATE) != 0))
        offset = nameStart + length
      }
    }
    return events
  }
}
