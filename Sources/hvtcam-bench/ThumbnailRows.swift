import Foundation
import HVTCamera

/// The time until an app holds a small picture of a still it asked for: ours delivers the photo with its
/// JPEG thumbnail (`.thumbnail`, 320 px on the longer side), camerabin posts a `preview-image` of the same
/// size (`post-previews`) — both what an app shows in its gallery strip right after the shutter.
struct ThumbnailRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    let quality = BenchPlan.quality(resolution)
    let model = try OurCamera.pipelineModel(quality: quality, directory: directory)
    guard let size = quality.requestedSize,
      let movie = model.movieEncoderElement, let photo = model.photoEncoderElement
    else { throw BenchError.failed("no size, or our model has no movie or photo encoder") }
    let longer = 320
    let preview = HVTFrameSize(width: longer, height: longer * size.height / size.width)
    var (ours, theirs) = (Series(), Series())
    let rounds = max(1, plan.rounds / 2)
    for round in 0..<rounds {
      log("\(resolution): thumbnails, round \(round + 1) of \(rounds)")
      let engines: [() throws -> Void] = [
        {
          let camera = try OurCamera(quality: quality, directory: self.directory)
          defer { camera.dismiss() }
          _ = try camera.present()
          for _ in 0..<self.plan.burst {
            let (shutter, delivery) = try camera.takePhoto()
            guard delivery.hasThumbnail else { throw BenchError.failed("a photo came without its thumbnail") }
            ours.add(shutter.milliseconds)
          }
        },
        {
          let camera = try CameraBin(
            size: size, encoder: movie, photoEncoder: photo, directory: self.directory, previews: preview)
          defer { camera.stop() }
          _ = try camera.start()
          for _ in 0..<self.plan.burst { theirs.add(try camera.takeStillPreview().milliseconds) }
        },
      ]
      for engine in round % 2 == 0 ? engines : engines.reversed() { try engine() }
    }
    return [
      Row(
        id: "thumbnail",
        title: "thumbnail: takePicture() → delegate holds the photo with its \(longer) px JPEG thumbnail",
        resolution: resolution, unit: "ms", hvtcamera: ours,
        reference: (
          "camerabin", "start-capture → preview-image (post-previews, \(preview.width)x\(preview.height) RGB)", theirs
        ))
    ]
  }
}
