// swift-tools-version:6.0
import PackageDescription

/// Debian packages that provide the GStreamer headers, libraries and plugins HVTCamera uses.
let gstreamerPackages = [
  "libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "libglib2.0-dev",
  "gstreamer1.0-plugins-base", "gstreamer1.0-plugins-good", "gstreamer1.0-plugins-ugly",
]

let package = Package(
  name: "HVTCamera",
  products: [
    .library(name: "HVTCamera", targets: ["HVTCamera"]),
    .executable(name: "hvtcam", targets: ["hvtcam"]),
    .executable(name: "hvtcam-bench", targets: ["hvtcam-bench"]),
  ],
  targets: [
    .systemLibrary(
      name: "CGStreamer",
      pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0 gstreamer-pbutils-1.0 gio-unix-2.0",
      providers: [.apt(gstreamerPackages)]
    ),
    .systemLibrary(
      name: "CGstRTSPServer", pkgConfig: "gstreamer-rtsp-server-1.0",
      providers: [.apt(["libgstrtspserver-1.0-dev"])]
    ),
    // Under every target: the one lock box (`Locked`), errno error (`SystemCallError`), queue check.
    .target(name: "HVTSupport"),
    // GLib and GIO beside GStreamer: GDBus (the Camera portal's bus), owned file descriptors, GLib's strings.
    .target(name: "HVTGLib", dependencies: ["CGStreamer"]),
    .target(name: "HVTGStreamer", dependencies: ["CGStreamer", "CGstRTSPServer", "HVTGLib", "HVTSupport"]),
    .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .target(name: "HVTCairo", dependencies: ["CPangoCairo"]),
    .target(name: "CV4L2"),
    .target(name: "CAllocator"),
    .target(name: "CFiles"),
    .target(name: "CConsole"),
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
    .target(name: "CScaledJPEG", dependencies: ["CJPEG"]),
    .target(
      name: "CWayland", linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]),
    // The vocabulary every part speaks: the public values, errors and events, the UIKit-named enums,
    // element descriptions, the debug category.
    .target(name: "HVTCameraCore", dependencies: ["HVTGStreamer"]),
    // Media tools: movie repair and trimming, the metadata writers (EXIF, XMP, MP4 and Matroska tags),
    // capture files, image headers.
    .target(name: "HVTMediaTools", dependencies: ["HVTCameraCore", "HVTGStreamer", "HVTSupport", "CFiles"]),
    // The camera interface: the default controls (what they show, how keys and clicks map to actions, their
    // drawing), the library's grid, the Wayland window.
    .target(
      name: "HVTCameraInterface", dependencies: ["HVTCameraCore", "HVTGStreamer", "HVTSupport", "HVTCairo", "CWayland"]),
    // The engine, and the module apps import: the controller, the pipeline model, the branches, devices,
    // presets and the album; it re-exports the three above.
    .target(
      name: "HVTCamera",
      dependencies: [
        "HVTCameraCore", "HVTMediaTools", "HVTCameraInterface", "HVTSupport", "HVTGLib", "HVTGStreamer", "HVTCairo",
        "CV4L2", "CAllocator", "CScaledJPEG",
      ],
      resources: [.copy("Resources/pipelines")]),
    .executableTarget(name: "hvtcam", dependencies: ["HVTCamera", "HVTSupport", "CConsole"]),
    .executableTarget(
      name: "hvtcam-bench", dependencies: ["HVTCamera", "HVTGStreamer", "HVTMediaTools", "HVTSupport"]),
    .target(name: "MediaInspection", dependencies: ["HVTSupport"], path: "Tests/MediaInspection"),
    .target(
      name: "PipeWireHarness", dependencies: ["MediaInspection"], path: "Tests/PipeWireHarness",
      resources: [.copy("MockPortal/camera_portal.py")]),
    .target(
      name: "WaylandHarness", dependencies: ["MediaInspection", "HVTSupport", "CWayland"],
      path: "Tests/WaylandHarness", resources: [.copy("virtual_pointer.py"), .copy("gtk4_picture.c")]),
    .testTarget(
      name: "HVTGStreamerTests", dependencies: ["HVTGStreamer", "HVTGLib", "HVTSupport", "MediaInspection"]),
    .testTarget(name: "HVTCairoTests", dependencies: ["HVTCairo"]),
    .testTarget(
      name: "HVTCameraTests",
      dependencies: [
        "HVTCamera", "HVTCameraCore", "HVTMediaTools", "HVTCameraInterface", "HVTGLib", "HVTGStreamer", "HVTSupport",
        "MediaInspection", "PipeWireHarness", "WaylandHarness",
      ],
      resources: [.copy("Fixtures/BadPresets")]),
    .testTarget(
      name: "hvtcamTests",
      dependencies: [
        "hvtcam", "HVTCamera", "HVTSupport", "CConsole", "MediaInspection", "PipeWireHarness", "WaylandHarness",
      ],
      resources: [
        .copy("Fixtures/rtsp_record_server.py"), .copy("Fixtures/silent_peer.py"), .copy("Fixtures/slow_link.py"),
        .copy("Fixtures/AppPackage"),
      ]),
    .testTarget(name: "hvtcam-benchTests", dependencies: ["hvtcam-bench", "MediaInspection"]),
  ],
  swiftLanguageModes: [.v6]
)
