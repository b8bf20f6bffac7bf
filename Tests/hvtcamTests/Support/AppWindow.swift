import Foundation
import MediaInspection

/// A small X11 app of the test's own, as an app embedding the camera would be: a Tk window (`wish`)
/// holding one frame, an X window without children, whose id is passed to `--window-id`. The app prints
/// the frame's id and every new size of it on standard error.
struct AppWindow {
  private let app: Subprocess
  private let script: URL
  /// The frame's X window id, `0x…`.
  let id: String
  /// The top-level window's id (Tk's wrapper window, named by the title), which a window manager (or
  /// xdotool) resizes.
  let topLevel: String

  /// Opens the window on `display` with a frame of `width` × `height` pixels and waits until it is mapped.
  init(display: PrivateDisplay, title: String, width: Int, height: Int) async throws {
    script = FileManager.default.temporaryDirectory.appendingPathComponent("app-window-\(UUID().uuidString).tcl")
    try """
    wm title . {\(title)}
    frame .f -width \(width) -height \(height) -background black
    pack .f -fill both -expand 1
    bind .f <Configure> {puts stderr "size %wx%h"}
    update
    puts stderr [format "id 0x%x" [winfo id .f]]
    """.write(to: script, atomically: true, encoding: .utf8)
    let wish = URL(fileURLWithPath: "/usr/bin/wish")
    guard FileManager.default.isExecutableFile(atPath: wish.path) else {
      throw TestFailure("no /usr/bin/wish (Debian: tk; ./dev test installs it)")
    }
    app = try Subprocess(
      wish, [script.path], environment: ["DISPLAY": display.name, "PATH": "/usr/bin:/bin"])
    let line = try await app.requireStandardErrorLine("the frame's id") { $0.hasPrefix("id ") }
    id = String(line.dropFirst(3))
    _ = try await app.requireStandardErrorLine("the first size") { $0 == "size \(width)x\(height)" }
    let search = try await display.xdotool(["search", "--name", "^\(title)$"])
    guard let topLevel = search.outputLines.first else {
      throw TestFailure("xdotool found no window named '\(title)': \(search)")
    }
    self.topLevel = topLevel
  }

  /// Resizes the top-level window with `xdotool windowsize`, as a person dragging its corner would, and
  /// waits until the frame has the new size.
  func resize(width: Int, height: Int, display: PrivateDisplay) async throws {
    try await display.xdotool(["windowsize", topLevel, String(width), String(height)])
    _ = try await app.requireStandardErrorLine("the new size") { $0 == "size \(width)x\(height)" }
  }

  /// Closes the app.
  func close() async {
    app.send(SIGKILL)
    _ = await app.result()
    try? FileManager.default.removeItem(at: script)
  }
}

/// The top-level windows on a display (`xwininfo -root -children`), by id.
func topLevelWindows(on display: PrivateDisplay) async throws -> Set<String> {
  let result = try await Subprocess.run(
    URL(fileURLWithPath: "/usr/bin/xwininfo"), ["-root", "-children"], environment: ["DISPLAY": display.name])
  guard result.succeeded else { throw TestFailure("xwininfo failed: \(result)") }
  return Set(
    result.outputLines.compactMap { line in
      let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init)
      return word.flatMap { $0.hasPrefix("0x") ? $0 : nil }
    })
}
