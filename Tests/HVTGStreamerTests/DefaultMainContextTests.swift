import Foundation
import HVTSupport
import Testing

@testable import HVTGStreamer

/// ``DefaultMainContext`` in a process where no main loop runs (a running one, GTK's, is tested with
/// `gtk4paintablesink` in HVTCameraTests' GTK 4 suite, in the Debian 13 tier).
@Suite("GLib's default main context")
struct DefaultMainContextTests {
  @Test("no thread runs it here, and invoke runs the action at once on the caller's thread")
  func invokeWithoutLoop() {
    #expect(!DefaultMainContext.isRunning)
    let ranOn = Locked<pthread_t?>(nil)
    DefaultMainContext.invoke { ranOn.withLock { $0 = pthread_self() } }
    #expect(ranOn.value == pthread_self())
    #expect(!DefaultMainContext.isRunning, "the context was released after")
  }
}
