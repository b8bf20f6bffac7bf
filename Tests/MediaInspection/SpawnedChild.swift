import Dispatch
import Foundation
import Glibc
import HVTSupport

/// A child process started with `posix_spawn`: what the tests' helpers (``Subprocess``, ``Daemon``,
/// ``MediaInspector``) start their tools with, in place of Foundation's `Process`.
///
/// On Linux, swift-corelibs-foundation's `Process.run()` finds the highest open descriptor by reading
/// `/proc/self/fd` with `readdir`, and copies each entry's whole 256-byte `d_name`, reading past the end of
/// the record glibc returned. With about 1,300 descriptors open in a test process, Debian 13's glibc 2.41
/// ended its directory buffer at a page boundary under one of those copies, and the test process crashed
/// in `Process.run()` (twice in the Debian 13 tier; one launch at a time did not help). Here no directory
/// is read: the child's descriptors above 2 are closed by `posix_spawn_file_actions_addclosefrom_np`
/// (glibc 2.34 and later). As `Process` does, the child gets a process group of its own; its signal mask
/// is emptied.
public final class SpawnedChild: Sendable {
  /// Where one of the child's standard streams goes.
  public enum Stream: Sendable {
    /// `/dev/null`.
    case null
    /// A descriptor of this process, which the child gets a copy of.
    case descriptor(Int32)
    /// A new pipe (output and error only): the child writes into it, this process reads
    /// ``standardOutput`` or ``standardError``, which end when the child (and whatever it started) closes
    /// its end.
    case pipe
    /// The error only: wherever the output goes.
    case output
  }

  /// The child's process id.
  public let pid: pid_t
  /// The read end of the child's output, when it is a ``Stream/pipe``.
  public let standardOutput: FileHandle?
  /// The read end of the child's error, when it is a ``Stream/pipe`` of its own.
  public let standardError: FileHandle?
  /// How it ended, once it has: set under its lock as the child is reaped, the lock ``signal(_:)`` holds.
  private let ending = Locked<(status: Int32, signalled: Bool)?>(nil)
  /// Left when the child has been reaped.
  private let reaped = DispatchGroup()

  /// Starts `executable` (a path) with `arguments` and exactly `environment`, in `directory` if given,
  /// its standard input, output and error where `input`, `output` and `error` say. Throws the error
  /// `pipe` or `posix_spawn` returned.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
    input: Stream = .null, output: Stream, error: Stream
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // The pipes' write ends are the child's only: closed here once it has them, or when it cannot start.
    var writeEnds: [Int32] = []
    defer { writeEnds.forEach { close($0) } }
    var readEnds: [Int32: FileHandle] = [:]
    for (stream, target) in [(input, STDIN_FILENO), (output, STDOUT_FILENO), (error, STDERR_FILENO)] {
      switch stream {
      case .null:
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor, target)
      case .pipe:
        let (read, write) = try Self.pipe()
        writeEnds.append(write)
        readEnds[target] = read
        posix_spawn_file_actions_adddup2(&actions, write, target)
      case .output:
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, target)
      }
    }
    guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory else {
      throw POSIXError(.ENOSYS, userInfo: [NSFilePathErrorKey: executable])
    }
    _ = closeFrom(&actions, 3)
    if let directory { _ = changeDirectory(&actions, directory) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO, userInfo: [NSFilePathErrorKey: executable])
    }
    pid = child
    standardOutput = readEnds[STDOUT_FILENO]
    standardError = readEnds[STDERR_FILENO]
    reapWhenEnded()
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `posix_spawn_file_actions_addchdir_np`
  /// (2.29), GNU extensions that Swift's `Glibc` module leaves out: looked up by name (`dlsym`).
  private static let closeFrom = function(
    "posix_spawn_file_actions_addclosefrom_np",
    as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  private static let changeDirectory = function(
    "posix_spawn_file_actions_addchdir_np",
    as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)

  /// The C function `name` of the process's libraries, as `type`; `nil` when none is loaded.
  private static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }

  /// A pipe for a child's output: the end this process reads, and the end the child writes. Both are
  /// close-on-exec, so that no other child inherits them.
  private static func pipe() throws -> (read: FileHandle, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard Glibc.pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (FileHandle(fileDescriptor: ends[0], closeOnDealloc: true), ends[1])
  }

  /// Blocks until the child has ended: its exit status, or the signal that ended it (`signalled`).
  public func waitForExit() -> (status: Int32, signalled: Bool) {
    reaped.wait()
    return ending.withLock { $0 } ?? (-1, false)
  }

  /// Calls `handler` with ``waitForExit()``'s answer once the child has ended, on a Dispatch queue.
  public func onExit(_ handler: @escaping @Sendable (_ status: Int32, _ signalled: Bool) -> Void) {
    reaped.notify(queue: .global()) { [ending] in
      let (status, signalled) = ending.withLock { $0 } ?? (-1, false)
      handler(status, signalled)
    }
  }

  /// Sends `signal` to the child unless it has ended (0 only asks whether it is still there); whether it
  /// was sent. Wraps `kill(2)`.
  ///
  /// Never to another process: a child's pid is its own until it is reaped, and it is reaped under the
  /// lock this holds, which also records how it ended. A `kill` of a pid kept after its child was reaped can
  /// reach whatever got the pid next (a CI machine's pids wrap at 32768), and when that is a thread of
  /// the test process, `kill` ends the whole test process.
  @discardableResult
  public func signal(_ signal: Int32) -> Bool {
    ending.withLock { ending in ending == nil && kill(pid, signal) == 0 }
  }

  /// Reaps the child on a thread of its own, so that none is left a zombie whether or not anyone waits
  /// for it: waits for its end without reaping it (`waitid` with `WNOWAIT`), then reaps it (`waitpid`,
  /// which returns at once then) and records how it ended, under ``signal(_:)``'s lock.
  private func reapWhenEnded() {
    reaped.enter()
    Thread.detachNewThread { [pid, ending, reaped] in
      var info = siginfo_t()
      while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
      ending.withLock { ending in
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        ending = signal == 0 ? ((status >> 8) & 0xff, false) : (signal, true)
      }
      reaped.leave()
    }
  }
}
