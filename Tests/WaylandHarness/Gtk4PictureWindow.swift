import Foundation
import Glibc
import MediaInspection
import HVTSupport

/// A small GTK 4 program of the test's own (`gtk4_picture.c`), standing for a GTK 4 app that shows the
/// camera: a window on a ``PrivateCompositor``, titled, grey (`0x808080`), holding one `GtkPicture`
/// (contain-fit, undecorated, so that it fills the window). A `GdkPaintable` cannot leave its process, so
/// the program is compiled into a shared library (`clang`, with `pkg-config gtk4`'s flags) and loaded into the
/// test's, where GTK's main loop runs on a thread of its own, as an app's main thread would run it.
///
/// GTK can start once in a process: ``open(on:title:)`` once, ``close()`` before the compositor stops
/// (GDK ends the process when its compositor goes away under it). The main loop goes on after, for what
/// the sink's paintable still hands it.
public final class Gtk4PictureWindow: @unchecked Sendable {  // C function addresses, set once in init.
  private typealias Open = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
  private typealias Run = @convention(c) () -> Void
  private typealias Show = @convention(c) (UnsafeMutableRawPointer) -> Void
  private typealias Query = @convention(c) () -> Int32

  private let openDisplay: Open
  private let run: Run
  private let showPaintable: Show
  private let isGtkThread: Query
  private let closeDisplay: Query

  /// The grey around the picture, as `RGBImage` reads it.
  public static let grey: (r: UInt8, g: UInt8, b: UInt8) = (0x80, 0x80, 0x80)

  /// Why it cannot run here (the compositor's tools, a C compiler or GTK 4's headers are missing), or `nil`.
  /// `./dev test` installs GTK 4's headers (`libgtk-4-dev`) where Debian packages `gstreamer1.0-gtk4`, 13 and
  /// later.
  public static let unavailableReason: String? = {
    if let reason = PrivateCompositor.unavailableReason { return reason }
    guard compiler != nil else { return "no C compiler (clang, which Swift's toolchain has, or cc)" }
    let check = try? SpawnedChild(
      "/usr/bin/env", ["pkg-config", "--exists", "gtk4"], environment: ProcessInfo.processInfo.environment,
      output: .null, error: .null)
    guard let check else { return "no pkg-config" }
    return check.waitForExit().status == 0
      ? nil : "GTK 4's headers are not installed (Debian 13 and later: libgtk-4-dev)"
  }()

  /// The C compiler on `PATH`: Swift's toolchain's `clang` (a minimal Debian, as the Debian 13 tier's root,
  /// has no `cc`), else `cc`.
  private static let compiler: String? = ["clang", "cc"].first { tool in
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
  }

  /// Whether the one program of the process has been opened.
  private static let opened = Locked(false)

  private init(library: UnsafeMutableRawPointer) throws {
    func symbol<Function>(_ name: String, as type: Function.Type) throws -> Function {
      guard let address = dlsym(library, name) else { throw TestFailure("gtk4_picture.c has no \(name)") }
      return unsafeBitCast(address, to: type)
    }
    openDisplay = try symbol("hvt_gtk4_open", as: Open.self)
    run = try symbol("hvt_gtk4_run", as: Run.self)
    showPaintable = try symbol("hvt_gtk4_show", as: Show.self)
    isGtkThread = try symbol("hvt_gtk4_is_gtk_thread", as: Query.self)
    closeDisplay = try symbol("hvt_gtk4_close", as: Query.self)
  }

  /// Compiles and loads the program, then, on a thread of its own that goes on running GTK's main loop,
  /// initializes GTK on `compositor` (its socket, by path) and shows the window titled `title`.
  public static func open(on compositor: PrivateCompositor, title: String) async throws -> Gtk4PictureWindow {
    if let reason = unavailableReason { throw TestFailure("no GTK 4 program: \(reason)") }
    let first = opened.withLock { opened in
      defer { opened = true }
      return !opened
    }
    guard first else { throw TestFailure("GTK 4 starts once in a process; it was started before") }
    guard let source = Bundle.module.url(forResource: "gtk4_picture", withExtension: "c")?.path else {
      throw TestFailure("gtk4_picture.c is not among the harness's resources")
    }
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("hvt-gtk4-\(UUID().uuidString).so").path
    defer { unlink(library) }  // loaded: the mapping stays
    let flags = try await MediaInspector.standardOutput(of: "pkg-config", ["--cflags", "--libs", "gtk4"])
    let compiler = compiler ?? "cc"
    let compiled = try await MediaInspector.run(
      compiler,
      ["-shared", "-fPIC", "-o", library, source] + flags.split(whereSeparator: \.isWhitespace).map(String.init))
    guard compiled.status == 0 else {
      throw TestFailure("\(compiler) failed on gtk4_picture.c: \(compiled.output)")
    }
    guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
      throw TestFailure("cannot load the GTK 4 program: \(String(cString: dlerror()))")
    }
    let window = try Gtk4PictureWindow(library: handle)
    let socket = compositor.directory.appendingPathComponent(compositor.display).path
    let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
      Thread.detachNewThread {
        let status = socket.withCString { socket in title.withCString { window.openDisplay(socket, $0) } }
        continuation.resume(returning: status)
        if status == 0 { window.run() }
      }
    }
    guard status == 0 else { throw TestFailure("GTK 4 cannot open the compositor at \(socket)") }
    return window
  }

  /// Shows `paintable` (a `GdkPaintable *`) in the picture, which takes its own reference. On GTK's thread
  /// only (where ``HVTPreviewOutput``'s paintable handler runs).
  public func show(_ paintable: UnsafeMutableRawPointer) { showPaintable(paintable) }

  /// Whether the calling thread is the one running GTK's main loop.
  public var isOnGtkThread: Bool { isGtkThread() != 0 }

  /// Destroys the window and closes GTK's display, on GTK's thread, waiting for it (10 s at most).
  public func close() async throws {
    let status = try await onDispatchThread { self.closeDisplay() }
    guard status == 0 else { throw TestFailure("GTK's thread did not close its display within 10 s") }
  }
}
