import HVTGStreamer

/// The engine's GStreamer debug category, `hvtcamera`: `GST_DEBUG=hvtcamera:6` shows the caps, device and
/// elements chosen, branches added and removed, limits hit and captures made, among GStreamer's own lines.
package let debugLog = DebugCategory(name: "hvtcamera", description: "HVTCamera capture engine decisions")
