import Foundation
import HVTGStreamer
import HVTSupport

/// The PNG files a controller's app-drawn overlays (``HVTCameraOverlay/Content/rgba(_:)``) are drawn
/// from: `gdkpixbufoverlay` reads images from files. Each new picture is encoded once (`appsrc !
/// videoconvert ! pngenc ! appsink`) into a folder of the controller's own in the temporary directory;
/// files no overlay uses any more are removed, and the folder goes with the controller.
final class OverlayImages: Sendable {
  private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "hvtcamera-overlays-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
  private let files = Locked<(count: Int, byImage: [HVTRGBAImage: URL])>((0, [:]))

  /// `overlays` with each app-drawn picture replaced by the image file that holds it. Encodes on the
  /// calling thread (a few milliseconds for an overlay-sized picture).
  func resolve(_ overlays: [HVTCameraOverlay]) throws -> [HVTCameraOverlay] {
    let resolved = try overlays.map { overlay -> HVTCameraOverlay in
      guard case .rgba(let image) = overlay.content else { return overlay }
      var copy = overlay
      copy.content = .image(try file(for: image))
      return copy
    }
    let used = Set(resolved.compactMap { if case .image(let url) = $0.content { url } else { nil } })
    let unused = files.withLock { files -> [URL] in
      let gone = files.byImage.filter { !used.contains($0.value) }
      gone.keys.forEach { files.byImage[$0] = nil }
      return Array(gone.values)
    }
    unused.forEach { try? FileManager.default.removeItem(at: $0) }
    return resolved
  }

  /// The file holding `image`, encoded now unless an overlay already uses it.
  private func file(for image: HVTRGBAImage) throws -> URL {
    if let known = files.withLock({ $0.byImage[image] }) { return known }
    let encoder = try PhotoEncoder(
      chain: HVTPipelineModel.stillPipeline([
        HVTElementDescription("videoconvert", name: "overlay-convert"),
        HVTElementDescription("pngenc", name: "overlay-encoder"),
      ]), name: "hvtcamera-overlay")
    defer { encoder.stop() }
    let caps = try Caps("video/x-raw,format=RGBA,width=\(image.width),height=\(image.height),framerate=0/1")
    let png = try encoder.encode(Buffer(copying: image.pixels), caps: caps)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = files.withLock { files -> URL in
      files.count += 1
      return folder.appendingPathComponent("overlay-\(files.count).png")
    }
    do {
      try png.write(to: url, options: .atomic)
    } catch {
      throw HVTCameraError.invalidOverlay(reason: "could not write \(url.path): \(SystemCallError.reason(of: error))")
    }
    files.withLock { $0.byImage[image] = url }
    return url
  }

  /// Removes the folder and every file in it.
  func removeAll() {
    try? FileManager.default.removeItem(at: folder)
  }
}
