import Foundation
import HVTSupport

@testable import HVTCamera

/// What reached the app in a ``MachineDriver``'s run: the events and errors, and, for every capture and
/// wait asked for (by number), how many times it was answered — which must be once.
final class Ledger: Sendable {
  private struct Books {
    var expected: [UInt64] = []
    var answers: [UInt64: Int] = [:]
    var events: [HVTCameraEvent] = []
    var errors: [HVTCameraError] = []
    var captures: [UInt64: Result<HVTCapture, HVTCameraError>] = [:]
  }

  private let books = Locked(Books())

  func expect(photo id: UInt64) { expect(id) }
  func expect(recording id: UInt64) { expect(id) }
  func expect(waiter id: UInt64) { expect(id) }

  private func expect(_ id: UInt64) {
    books.withLock { $0.expected.append(id) }
  }

  /// Where capture `id` is delivered: its answer is recorded.
  func destination(for id: UInt64) -> ControllerMachine.Destination {
    .caller { [self] result in
      books.withLock { books in
        books.answers[id, default: 0] += 1
        books.captures[id] = result
      }
    }
  }

  /// Request `id` was answered at once (refused, or ignored as announced).
  func settle(_ id: UInt64) {
    books.withLock { $0.answers[id, default: 0] += 1 }
  }

  /// Waiter `id` was answered.
  func answer(waiter id: UInt64) {
    books.withLock { $0.answers[id, default: 0] += 1 }
  }

  func record(event: HVTCameraEvent) {
    books.withLock { $0.events.append(event) }
  }

  func record(error: HVTCameraError) {
    books.withLock { $0.errors.append(error) }
  }

  /// The requests answered other than once, with how many times.
  var misanswered: [(id: UInt64, answers: Int)] {
    books.withLock { books in
      books.expected.compactMap { id in
        let count = books.answers[id] ?? 0
        return count == 1 ? nil : (id, count)
      }
    }
  }

  /// The events, in order.
  var events: [HVTCameraEvent] { books.withLock { $0.events } }

  /// The errors reported to the delegate, in order.
  var errors: [HVTCameraError] { books.withLock { $0.errors } }

  /// What capture `id` was answered with.
  func capture(_ id: UInt64) -> Result<HVTCapture, HVTCameraError>? { books.withLock { $0.captures[id] } }
}
