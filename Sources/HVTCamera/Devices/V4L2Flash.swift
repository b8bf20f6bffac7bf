import CV4L2

/// Something V4L2 controls can be set on: a ``V4L2Node`` (`VIDIOC_S_EXT_CTRLS`), or a test's recorder.
protocol V4L2ControlWriter {
  /// Sets control `id` to `value`.
  func setValue(_ value: Int64, of id: UInt32) throws(V4L2Failure)
}

extension V4L2Node: V4L2ControlWriter {}

/// A V4L2 flash LED, worked through the flash control class: fired for a still (LED mode flash, strobe
/// source software, strobe), lit as a torch while recording (LED mode torch), and put out (strobe stop,
/// LED mode none).
struct V4L2Flash {
  /// Where the controls are set.
  let device: any V4L2ControlWriter

  /// Fires the flash: `V4L2_CID_FLASH_LED_MODE` = flash, `V4L2_CID_FLASH_STROBE_SOURCE` = software,
  /// `V4L2_CID_FLASH_STROBE`.
  func fire() throws(V4L2Failure) {
    try device.setValue(Int64(V4L2_FLASH_LED_MODE_FLASH.rawValue), of: UInt32(V4L2_CID_FLASH_LED_MODE))
    try device.setValue(Int64(V4L2_FLASH_STROBE_SOURCE_SOFTWARE.rawValue), of: UInt32(V4L2_CID_FLASH_STROBE_SOURCE))
    try device.setValue(1, of: UInt32(V4L2_CID_FLASH_STROBE))
  }

  /// Lights the LED as a torch (`V4L2_CID_FLASH_LED_MODE` = torch).
  func lightTorch() throws(V4L2Failure) {
    try device.setValue(Int64(V4L2_FLASH_LED_MODE_TORCH.rawValue), of: UInt32(V4L2_CID_FLASH_LED_MODE))
  }

  /// Puts the LED out: `V4L2_CID_FLASH_STROBE_STOP` after a flash, then `V4L2_CID_FLASH_LED_MODE` = none.
  func putOut(afterFlash: Bool) throws(V4L2Failure) {
    if afterFlash { try device.setValue(1, of: UInt32(V4L2_CID_FLASH_STROBE_STOP)) }
    try device.setValue(Int64(V4L2_FLASH_LED_MODE_NONE.rawValue), of: UInt32(V4L2_CID_FLASH_LED_MODE))
  }
}
