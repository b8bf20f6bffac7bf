/// One adjustable setting of a camera — brightness, contrast, exposure, white balance, focus, zoom,
/// power-line frequency… — as the device describes it: a V4L2 control (`VIDIOC_QUERY_EXT_CTRL`,
/// `VIDIOC_QUERYMENU`), or one the simulated camera models with `videobalance`.
public struct HVTCameraControl: Sendable, Hashable, CustomStringConvertible {
  /// What values a control takes.
  public enum Kind: Sendable, Hashable {
    /// An integer from `minimum` to `maximum` in steps of `step` (from `minimum`).
    case integer(minimum: Int64, maximum: Int64, step: Int64)
    /// Off (0) or on (1), e.g. `white_balance_automatic`.
    case boolean
    /// One of named (or numbered) items, e.g. `power_line_frequency`: 0 Disabled, 1 50 Hz, 2 60 Hz.
    case menu([MenuItem])
    /// An action with no value, e.g. a one-shot autofocus; setting it to any value presses it.
    case button
  }

  /// One item of a menu control.
  public struct MenuItem: Sendable, Hashable {
    /// The value that selects it.
    public var value: Int64
    /// The driver's name for it (or, for an integer menu, its number).
    public var name: String
  }

  /// The name to set it by, as `v4l2-ctl` spells it: `brightness`, `white_balance_temperature`,
  /// `auto_exposure`.
  public var name: String
  /// The driver's own name, e.g. `White Balance Temperature`.
  public var title: String
  /// The values it takes.
  public var kind: Kind
  /// The value it has after a reset.
  public var defaultValue: Int64
  /// The current value; `nil` for a button.
  public var value: Int64?
  /// Whether it can only be read (a value the device reports).
  public var isReadOnly: Bool
  /// Whether it has no effect for now, because an automatic mode is on (`gain` while
  /// `gain_automatic` is 1, `exposure_time_absolute` while `auto_exposure` is automatic).
  public var isInactive: Bool
  /// The V4L2 control ID (`V4L2_CID_*`), or 0 for the simulated camera's.
  let id: UInt32

  /// Whether `value` is one the control takes: within the range and on a step, 0 or 1, or a menu item.
  public func accepts(_ value: Int64) -> Bool {
    switch kind {
    case .integer(let minimum, let maximum, let step):
      value >= minimum && value <= maximum && (step <= 1 || (value - minimum) % step == 0)
    case .boolean: value == 0 || value == 1
    case .menu(let items): items.contains { $0.value == value }
    case .button: true
    }
  }

  /// The values it takes, as text: `0…255 step 1`, `0|1`, `0 Disabled|1 50 Hz|2 60 Hz`, `button`.
  public var rangeText: String {
    switch kind {
    case .integer(let minimum, let maximum, let step): "\(minimum)…\(maximum)\(step > 1 ? " step \(step)" : "")"
    case .boolean: "0|1"
    case .menu(let items): items.map { "\($0.value) \($0.name)" }.joined(separator: "|")
    case .button: "button"
    }
  }

  /// `brightness = 128 (0…255, default 128)`, with `read-only` or `inactive` when so.
  public var description: String {
    let flags = [isReadOnly ? "read-only" : nil, isInactive ? "inactive" : nil].compactMap { $0 }
    return "\(name) = \(value.map(String.init) ?? "-") (\(rangeText), default \(defaultValue))"
      + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]")
  }

  /// A driver's control name the way `v4l2-ctl` turns it into one to type: lower case, every run of
  /// other characters one underscore (`White Balance, Auto` → `white_balance_auto`).
  static func name(for title: String) -> String {
    var name = ""
    for character in title.lowercased() {
      if character.isLetter || character.isNumber {
        name.append(character)
      } else if !name.isEmpty, name.last != "_" {
        name.append("_")
      }
    }
    return name.hasSuffix("_") ? String(name.dropLast()) : name
  }
}
