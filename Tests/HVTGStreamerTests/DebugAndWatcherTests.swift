import Foundation
import HVTSupport
import Testing

@testable import HVTGStreamer

@Suite("Debug category and device watcher")
struct DebugAndWatcherTests {
  @Test("a debug category is registered once and follows the GST_DEBUG threshold")
  func category() {
    let category = DebugCategory(name: "hvttest", description: "tests")
    let again = DebugCategory(name: "hvttest", description: "tests")
    let threshold = ProcessInfo.processInfo.environment["GST_DEBUG"]
    if threshold == nil {
      #expect(!category.isEnabled(.warning))
    }
    #expect(category.isEnabled(.info) == again.isEnabled(.info))
    var built = false
    category.log(
      .trace,
      {
        built = true
        return "never built unless GST_DEBUG asks for trace"
      }())
    #expect(built == category.isEnabled(.trace))
  }

  @Test("a device watcher starts and stops with no devices present")
  func watcher() {
    let changes = Locked(0)
    do {
      let watcher = DeviceWatcher(deviceClass: "Video/Source") { _ in changes.withLock { $0 += 1 } }
      #expect(watcher != nil)
    }
    if !(((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains { $0.hasPrefix("video") }) {
      #expect(changes.value == 0)
    }
  }
}
