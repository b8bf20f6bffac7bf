import Foundation
import MediaInspection
import Testing

@testable import HVTGStreamer

@Suite("DeviceMonitor", .timeLimit(.minutes(1)))
struct DeviceMonitorTests {
  @Test func listsVideoSourcesOfTheRequestedClass() throws {
    let devices = DeviceMonitor.devices(ofClass: "Video/Source")
    for device in devices {
      #expect(device.deviceClass.contains("Video/Source"))
      #expect(!device.displayName.isEmpty)
    }
    if !hasVideoDevices {
      #expect(devices.isEmpty, "no /dev/video* here, yet found \(devices.map(\.displayName))")
    }
  }

  @Test func anUnknownClassHasNoDevices() {
    #expect(DeviceMonitor.devices(ofClass: "Nothing/Such-Class").isEmpty)
  }
}
