import CConsole
import Foundation
import HVTCamera
import HVTSupport
import Synchronization

/// Standard output and standard error for the command line. A write that fails — a closed pipe
/// (`| head`), a full device (`2>/dev/full`) — is counted and otherwise ignored: output never stops or
/// crashes a capture. `main` exits with ``Console/writeFailureStatus`` when any write failed.
enum Console {
  /// The exit status of a command whose own work succeeded but whose output could not all be written
  /// (`EX_IOERR`).
  static let writeFailureStatus: Int32 = 74

  private static let failedWrites = Atomic(0)
  /// What is never written: the secrets of the streams a command runs (``hide(_:)``).
  private static let hidden = Locked<Set<String>>([])

  /// Writes each of `secrets` as `***` from now on, wherever it would appear: a last line of defence
  /// behind the engine's own masking, for GStreamer's messages relayed by `--verbose` among others.
  static func hide(_ secrets: some Sequence<String>) {
    hidden.withLock { $0.formUnion(secrets.filter { !$0.isEmpty }) }
  }

  /// Writes a line to standard output.
  static func out(_ line: String) {
    write(line + "\n", to: STDOUT_FILENO)
  }

  /// Writes text to standard output as it is.
  static func write(_ text: String) {
    write(text, to: STDOUT_FILENO)
  }

  /// Writes a line to standard error.
  static func error(_ line: String) {
    write(line + "\n", to: STDERR_FILENO)
  }

  /// Writes text to standard error as it is (progress that rewrites its line with `\r`).
  static func progress(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  /// `text` (a file name, a path) safe to print on a terminal and in a line of output: control
  /// characters — a line break, `ESC` that starts a terminal's escape sequence, `DEL`, C1 controls — and
  /// the backslash written as C-style escapes (`\n`, `\t`, `\e`, `\x7f`, `\u{9b}`, `\\`). Everything
  /// else, non-ASCII letters included, is kept. `--json` prints names exactly instead.
  static func escaped(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": shown += "\\\\"
      case "\n": shown += "\\n"
      case "\t": shown += "\\t"
      case "\r": shown += "\\r"
      case "\u{1b}": shown += "\\e"
      case _ where scalar.value < 0x20 || scalar.value == 0x7f:
        shown += String(format: "\\x%02x", scalar.value)
      case _ where (0x80...0x9f).contains(scalar.value):
        shown += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  /// Whether any write has failed.
  static var hadWriteFailure: Bool { failedWrites.load(ordering: .relaxed) > 0 }

  /// Writes all of `text` with `write(2)`, unbuffered, so that each line is out as soon as it is known,
  /// holding the C library's lock of the stream (`writeAll(_:to:holding:)`): a line never lands inside
  /// one that GStreamer or GLib is printing (`GST_DEBUG`), which glibc 2.37 and later write in pieces.
  /// Gives up on the first error other than `EINTR`.
  private static func write(_ text: String, to descriptor: Int32) {
    let shown = Data(HVTStreamTarget.masking(text, secrets: hidden.withLock { $0 }).utf8)
    let failed = hvt_console_stream(descriptor).map { writeAll(shown, to: descriptor, holding: $0) }
    if (failed ?? writeAll(shown, to: descriptor)) != 0 { failedWrites.add(1, ordering: .relaxed) }
  }
}
