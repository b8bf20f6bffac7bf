import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

@Suite("Photos", .timeLimit(.minutes(1)))
struct PhotoTests {
  @Test(
    "takePicture delivers one JPEG of the quality's size, the frame of the moment",
    arguments: [
      HVTCameraController.QualityType.type640x480, .type1280x720,
    ])
  func photo(quality: HVTCameraController.QualityType) async throws {
    let camera = try TestCamera(quality: quality)
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    // Frames reach the preview after the tee, where the photo's frame is kept: what the preview has seen
    // before the call is at most as new as the frame of the moment.
    let shown = try #require(camera.controller.previewStatistics?.latestFrameTimestamp)
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    let size = try #require(quality.requestedSize)
    let image = try photo.image
    #expect(image.width == size.width && image.height == size.height)
    #expect(image.jpegData.starts(with: [0xFF, 0xD8]))
    let url = try photo.imageURL
    #expect(try Data(contentsOf: url) == image.jpegData)
    let report = try await MediaInspector.discover(url)
    #expect(report.isJPEG && report.width == size.width && report.height == size.height)
    let metadata = try photo.metadata
    // Zero shutter lag: the frame already existed when takePicture() was called (its age is not negative),
    // and it was the newest: no older than what the preview had shown. (Bounds on the age in seconds
    // depend on the machine's load; the benchmark measures them.)
    let age = try #require(metadata.frameAge)
    #expect(age >= 0, "frame age \(age) s")
    #expect(metadata.frameTimestamp >= shown, "photo of \(metadata.frameTimestamp) s, preview at \(shown) s")
    #expect(metadata.encoder == "jpegenc")
    #expect(metadata.configuration.size == size)
    #expect(metadata.fileSize == image.jpegData.count)
    #expect(url.lastPathComponent.hasPrefix("IMG_") && url.pathExtension == "jpg")
    await camera.controller.dismissAndWait()
  }

  @Test("a second takePicture while one is in flight has no effect, and says so")
  func secondCallIgnored() async throws {
    let camera = try TestCamera()
    _ = try await camera.delegate.nextEvent { if case .configured = $0 { true } else { nil } }
    // With the main actor held, the first photo cannot have reached the delegate: it is in flight for
    // the second call whatever the timing.
    await MainActor.run {
      camera.controller.takePicture()
      camera.controller.takePicture()
    }
    let call = try await camera.delegate.nextEvent { if case .callIgnored(let call, _) = $0 { call } else { nil } }
    #expect(call == "takePicture()")
    _ = try await camera.delegate.nextCapture(.image)
    await camera.controller.dismissAndWait()  // delivers anything still in flight
    await camera.delegate.flush()
    #expect(camera.delegate.captures.count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: camera.directory.path).count == 1)
  }

  @Test("the delegate takes the next picture from inside the callback that receives one")
  func pictureFromTheCallback() async throws {
    let camera = try TestCamera()
    let chain = PictureChain(count: 3)
    camera.controller.cameraDelegate = chain
    await MainActor.run { camera.controller.takePicture() }
    let names = try await chain.names()
    #expect(Set(names).count == 3)
    await camera.controller.dismissAndWait()
  }

  @Test("photos in a row get unique names; each is the newest frame at its call")
  func photosInARow() async throws {
    let camera = try TestCamera()
    var timestamps: [Double] = []
    var names: Set<String> = []
    for _ in 0..<3 {
      camera.controller.takePicture()
      let photo = try await camera.delegate.nextCapture(.image)
      timestamps.append(try photo.metadata.frameTimestamp)
      names.insert(try photo.imageURL.lastPathComponent)
    }
    #expect(names.count == 3)
    #expect(timestamps == timestamps.sorted())
    await camera.controller.dismissAndWait()
  }

  @Test("the flash fires with .on on the rear camera: a lit frame taken after the call")
  func flashOn() async throws {
    let camera = try TestCamera()
    _ = try await camera.delegate.nextEvent { if case .previewStarted = $0 { true } else { nil } }
    camera.controller.cameraFlashMode = .off
    camera.controller.takePicture()
    let unlit = try await camera.delegate.nextCapture(.image)
    camera.controller.cameraFlashMode = .on
    // Every frame the preview has seen passed the tee before the call; the lit frame passes it after.
    let shown = try #require(camera.controller.previewStatistics?.latestFrameTimestamp)
    camera.controller.takePicture()
    let lit = try await camera.delegate.nextCapture(.image)
    #expect(try unlit.metadata.flashFired == false)
    #expect(try lit.metadata.flashFired == true)
    let litTime = try lit.metadata.frameTimestamp
    #expect(litTime > shown, "the flash photo (\(litTime) s) is a frame after the call (preview at \(shown) s)")
    let litLuma = try await MediaInspector.meanLuma(ofJPEG: lit.imageURL)
    let unlitLuma = try await MediaInspector.meanLuma(ofJPEG: unlit.imageURL)
    #expect(litLuma > unlitLuma + 0.1, "lit \(litLuma), unlit \(unlitLuma)")
    await camera.controller.dismissAndWait()
  }

  @Test(".auto fires only in a dark scene")
  func autoFlashDecision() {
    #expect(HVTFlashDecision.fires(.auto, meanLuma: 0.1))
    #expect(!HVTFlashDecision.fires(.auto, meanLuma: 0.6))
    #expect(!HVTFlashDecision.fires(.auto, meanLuma: nil))
    #expect(HVTFlashDecision.fires(.on, meanLuma: 0.9))
    #expect(!HVTFlashDecision.fires(.off, meanLuma: 0.0))
  }

  @Test("the front camera has no flash: .on does not fire")
  func frontHasNoFlash() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.cameraDevice = .front
    camera.controller.cameraFlashMode = .on
    try await camera.controller.presentAndWait()
    camera.controller.takePicture()
    let photo = try await camera.delegate.nextCapture(.image)
    #expect(try photo.metadata.flashFired == false)
    #expect(try photo.metadata.configuration.device == .front)
    await camera.controller.dismissAndWait()
  }

  @Test("takePicture reports why it takes nothing when not presented or without .image")
  func noEffect() async throws {
    let camera = try TestCamera(present: false)
    camera.controller.takePicture()
    try camera.controller.setMediaTypes([.movie])
    try await camera.controller.presentAndWait()
    camera.controller.takePicture()
    await camera.controller.dismissAndWait()
    #expect(camera.delegate.captures.isEmpty)
    let errors = camera.delegate.errors.compactMap { $0 as? HVTCameraError }
    #expect(errors == [.notPresented, .mediaTypeNotEnabled(.image)])
    await #expect(throws: HVTCameraError.notPresented) { try await camera.controller.capturePhoto() }
  }
}

/// A main-actor delegate, as an app's, that calls `takePicture()` from inside the callback that receives
/// each photo until it has `count`, then hands their names to the test.
@MainActor private final class PictureChain: HVTCameraControllerDelegate {
  private let count: Int
  private var received: [String] = []
  private let done = AsyncStream<[String]>.makeStream()

  nonisolated init(count: Int) { self.count = count }

  /// The file names, once `count` photos have arrived; throws when the test's time runs out first.
  nonisolated func names() async throws -> [String] {
    for await names in done.stream { return names }
    throw CancellationError()
  }

  func cameraController(
    _ controller: HVTCameraController, didFinishCapturingMediaWithInfo info: [HVTCameraController.InfoKey: any Sendable]
  ) {
    received.append((info[.imageURL] as? URL)?.lastPathComponent ?? "")
    if received.count < count {
      controller.takePicture()
    } else {
      done.continuation.yield(received)
      done.continuation.finish()
    }
  }

  func cameraControllerDidCancel(_ controller: HVTCameraController) {}

  func cameraController(_ controller: HVTCameraController, didFailWithError error: any Error) {
    done.continuation.finish()
  }
}
