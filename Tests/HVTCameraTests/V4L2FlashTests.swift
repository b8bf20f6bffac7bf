import CV4L2
import Testing

@testable import HVTCamera

/// The V4L2 flash, at the ioctl layer: which flash-class controls are set, in which order, with which
/// values. (No flash LED can be had here — vivid has none — so the sequence is checked on a recorder, and
/// the real-camera tier checks that a node without a flash refuses it.)
@Suite("V4L2 flash")
struct V4L2FlashTests {
  /// Records the controls set, in order.
  final class Recorder: V4L2ControlWriter, @unchecked Sendable {  // Written and read by one test, in turn.
    var sets: [(id: UInt32, value: Int64)] = []
    func setValue(_ value: Int64, of id: UInt32) throws(V4L2Failure) { sets.append((id, value)) }
    var names: [String] { sets.map { "\(Self.name($0.id))=\($0.value)" } }
    static func name(_ id: UInt32) -> String {
      switch Int32(id) {
      case V4L2_CID_FLASH_LED_MODE: "led_mode"
      case V4L2_CID_FLASH_STROBE_SOURCE: "strobe_source"
      case V4L2_CID_FLASH_STROBE: "strobe"
      case V4L2_CID_FLASH_STROBE_STOP: "strobe_stop"
      default: "0x\(String(id, radix: 16))"
      }
    }
  }

  @Test("a photo's flash: LED mode flash, software strobe, strobe; then strobe stop and LED mode none")
  func flash() throws {
    let recorder = Recorder()
    let flash = V4L2Flash(device: recorder)
    try flash.fire()
    try flash.putOut(afterFlash: true)
    #expect(recorder.names == ["led_mode=1", "strobe_source=0", "strobe=1", "strobe_stop=1", "led_mode=0"])
  }

  @Test("a recording's torch: LED mode torch, then none, with no strobe")
  func torch() throws {
    let recorder = Recorder()
    let flash = V4L2Flash(device: recorder)
    try flash.lightTorch()
    try flash.putOut(afterFlash: false)
    #expect(recorder.names == ["led_mode=2", "led_mode=0"])
  }
}
