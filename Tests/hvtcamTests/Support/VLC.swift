import Foundation
import MediaInspection
import Testing

/// VLC's command-line player (`cvlc`, Debian's vlc-bin, which `./dev test` installs), a client that is
/// neither FFmpeg nor GStreamer. VLC refuses to run as root: under root it runs as `hvtcam-vlc`, a system
/// user made for it when missing (`useradd`, without a home or a login shell).
enum VLC {
  /// Whether `cvlc` is installed.
  static let installed = FileManager.default.isExecutableFile(atPath: "/usr/bin/cvlc")

  /// The user VLC runs as under root.
  static let user = "hvtcam-vlc"

  /// The command line that runs `cvlc` with `arguments`: as is for a user, through `runuser` as ``user``
  /// for root (made first when missing).
  static func command(_ arguments: [String]) async throws -> [String] {
    guard getuid() == 0 else { return ["/usr/bin/cvlc"] + arguments }
    if try await !Subprocess.run(tool: "id", ["-u", user]).succeeded {
      let made = try await Subprocess.run(
        tool: "useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
      // Another test process may have made it meanwhile.
      guard made.succeeded || made.status == 9 else { throw TestFailure("useradd \(user): \(made)") }
    }
    return ["/usr/sbin/runuser", "-u", user, "--", "/usr/bin/cvlc"] + arguments
  }

  /// A folder VLC may write into, whoever it runs as.
  static func writableFolder(in directory: TemporaryDirectory) throws -> String {
    let folder = directory.path("vlc")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
    return folder
  }
}

/// Python's HTTP server on 127.0.0.1 serving one folder, as a web server serves an HLS stream's.
struct FolderServer {
  let process: Subprocess
  let port: Int

  /// Serves `folder` and waits until it listens (its "Serving HTTP" line, sent to stderr).
  init(_ folder: String) async throws {
    port = try FreePort.tcp()
    process = try Subprocess(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "exec python3 -u -m http.server --bind 127.0.0.1 \(port) --directory \"$0\" 1>&2", folder],
      environment: ProcessInfo.processInfo.environment)
    _ = try await process.requireStandardErrorLine("the HTTP server listening") { $0.hasPrefix("Serving HTTP") }
  }
}
