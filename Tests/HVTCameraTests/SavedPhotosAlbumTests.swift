import Foundation
import HVTGStreamer
import MediaInspection
import Testing

@testable import HVTCamera

/// The saved-photos album: what goes in is decided by GStreamer's reader (`GstDiscoverer`), saving is
/// asynchronous with a completion, atomic, and never replaces a file already in the album.
@Suite("The saved-photos album", .serialized, .timeLimit(.minutes(2)))
struct SavedPhotosAlbumTests {
  /// Points the album at fresh folders for `body`, and puts the defaults back after.
  func withAlbum(_ body: (_ photos: URL, _ movies: URL) async throws -> Void) async throws {
    let directory = try TemporaryDirectory().url
    defer {
      try? FileManager.default.removeItem(at: directory)
      HVTSavedPhotosAlbum.restoreDefaultFolders()
    }
    let (photos, movies) = (directory.appendingPathComponent("photos"), directory.appendingPathComponent("movies"))
    HVTSavedPhotosAlbum.photosFolder = photos
    HVTSavedPhotosAlbum.moviesFolder = movies
    try await body(photos, movies)
  }

  /// The names in a folder, hidden ones included.
  func names(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  /// A one-second movie of `camera` (in video mode).
  func recordMovie(with camera: TestCamera) async throws -> URL {
    camera.controller.videoMaximumDuration = 1
    try await camera.startRecording()
    return try await camera.delegate.nextCapture(.movie).movieURL
  }

  @Test("a movie is saved whole under its own name, then a numbered one; GStreamer reads it as a movie")
  func movie() async throws {
    let camera = try TestCamera(mode: .video)
    let recorded = try await recordMovie(with: camera)
    try await withAlbum { _, movies in
      #expect(HVTSavedPhotosAlbum.isVideoCompatible(atPath: recorded.path))
      #expect(!HVTSavedPhotosAlbum.isImageCompatible(atPath: recorded.path))
      let saved = try await HVTSavedPhotosAlbum.saveVideo(atPath: recorded.path)
      #expect(saved == movies.appendingPathComponent(recorded.lastPathComponent))
      #expect(try Data(contentsOf: saved) == Data(contentsOf: recorded))
      // With a completion handler, on the album's queue; the name is taken now.
      let again = try await withCheckedThrowingContinuation { continuation in
        HVTSavedPhotosAlbum.saveVideo(atPath: recorded.path) { continuation.resume(with: $0) }
      }
      let stem = recorded.deletingPathExtension().lastPathComponent
      #expect(again.lastPathComponent == "\(stem)-2.mp4")
      #expect(names(in: movies) == [recorded.lastPathComponent, "\(stem)-2.mp4"].sorted())
      let discovery = try await MediaInspector.discover(again.path)
      #expect(discovery.isH264 && abs((discovery.duration ?? 0) - 1) < 0.05, "\(discovery)")
    }
  }

  @Test("a text file named .mp4 is not a movie: refused with the reason, nothing written")
  func notAMovie() async throws {
    try await withAlbum { _, movies in
      let fake = HVTSavedPhotosAlbum.photosFolder.deletingLastPathComponent().appendingPathComponent("fake.mp4")
      try Data("not a movie\n".utf8).write(to: fake)
      #expect(!HVTSavedPhotosAlbum.isVideoCompatible(atPath: fake.path))
      await #expect {
        try await HVTSavedPhotosAlbum.saveVideo(atPath: fake.path)
      } throws: { error in
        guard case .notCompatibleWithAlbum(let path, _) = error as? HVTCameraError else { return false }
        return path == fake.path
      }
      #expect(names(in: movies).isEmpty)
    }
  }

  @Test("a photo is written as a JPEG GStreamer reads as an image; bytes that are not a JPEG are refused")
  func photo() async throws {
    let camera = try TestCamera()
    camera.controller.takePicture()
    let image = try await camera.delegate.nextCapture(.image).image
    try await withAlbum { photos, _ in
      let saved = try await HVTSavedPhotosAlbum.writeImage(image, named: "beach.jpg")
      #expect(saved == photos.appendingPathComponent("beach.jpg"))
      #expect(HVTSavedPhotosAlbum.isImageCompatible(atPath: saved.path))
      #expect(!HVTSavedPhotosAlbum.isVideoCompatible(atPath: saved.path))
      let media = try MediaDiscoverer.discover(saved)
      #expect(media.width == image.width && media.height == image.height, "\(media)")
      let second = try await HVTSavedPhotosAlbum.writeImage(image, named: "beach.jpg")
      #expect(second.lastPathComponent == "beach-2.jpg")
      #expect(names(in: photos) == ["beach-2.jpg", "beach.jpg"])
      await #expect(throws: HVTCameraError.self) {
        try await HVTSavedPhotosAlbum.writeImage(HVTImage(jpegData: Data("text".utf8), width: 1, height: 1))
      }
      #expect(names(in: photos) == ["beach-2.jpg", "beach.jpg"])
    }
  }

  @Test("the album's items are the photos and movies GStreamer reads, newest first; an empty album is not available")
  func browsing() async throws {
    let camera = try TestCamera(mode: .video)
    let movie = try await recordMovie(with: camera)
    camera.controller.cameraCaptureMode = .photo
    camera.controller.takePicture()
    let image = try await camera.delegate.nextCapture(.image).image
    try await withAlbum { photos, _ in
      #expect(HVTSavedPhotosAlbum.items(of: .savedPhotosAlbum).isEmpty)
      #expect(!HVTCameraController.isSourceTypeAvailable(.savedPhotosAlbum))
      let photo = try await HVTSavedPhotosAlbum.writeImage(image, named: "first.jpg")
      try Data("a note\n".utf8).write(to: photos.appendingPathComponent("notes.txt"))
      try Data("not a movie\n".utf8).write(to: photos.appendingPathComponent("fake.mp4"))
      let saved = try await HVTSavedPhotosAlbum.saveVideo(atPath: movie.path)
      #expect(HVTCameraController.isSourceTypeAvailable(.savedPhotosAlbum))
      let items = HVTSavedPhotosAlbum.items(of: .savedPhotosAlbum)
      #expect(items.map(\.url) == [saved, photo], "\(items)")
      #expect(items.map(\.mediaType) == [.movie, .image])
      #expect(try items.map(\.fileSize) == [saved, photo].map { try Data(contentsOf: $0).count })
      #expect(items.first.map { abs(($0.duration ?? 0) - 1) < 0.05 && $0.audioStreams == 1 } == true, "\(items)")
      #expect(items.last.map { $0.width == image.width && $0.height == image.height && $0.duration == nil } == true)
    }
  }

  @Test("picking from the album delivers a capture's dictionary with a thumbnail; present() refuses a library")
  func picking() async throws {
    let camera = try TestCamera(mode: .video)
    let movie = try await recordMovie(with: camera)
    camera.controller.cameraCaptureMode = .photo
    let photo = try await camera.controller.capturePhoto()
    await camera.controller.dismissAndWait()
    try await withAlbum { _, _ in
      let saved = try await HVTSavedPhotosAlbum.saveVideo(atPath: movie.path)
      let image = try await HVTSavedPhotosAlbum.writeImage(try #require(photo.image), named: "still.jpg")
      camera.controller.sourceType = .savedPhotosAlbum
      await #expect(throws: HVTCameraError.sourceTypeNotCamera(.savedPhotosAlbum)) {
        try await camera.controller.presentAndWait()
      }
      #expect(!camera.controller.isPresented)
      let items = camera.controller.library.items
      #expect(items.map(\.url) == [image, saved], "\(items)")
      for item in items {
        camera.controller.pick(item)
        let picked = try await camera.delegate.nextCapture(item.mediaType)
        let thumbnail = try #require(picked.info[.thumbnail] as? HVTImage)
        #expect(thumbnail.width == 320 && thumbnail.height == 240, "\(thumbnail.width)x\(thumbnail.height)")
        // The thumbnail is a JPEG GStreamer's reader sees at that size.
        let file = camera.directory.appendingPathComponent(
          "thumbnail-\(item.mediaType == .movie ? "movie" : "photo").jpg")
        try thumbnail.jpegData.write(to: file)
        let report = try await MediaInspector.discover(file.path)
        #expect(report.isJPEG && report.size == "320x240", "\(report)")
        if item.mediaType == .movie {
          #expect(picked.info[.mediaURL] as? URL == saved && picked.info[.imageURL] == nil)
        } else {
          #expect(picked.info[.imageURL] as? URL == image)
          #expect((picked.info[.originalImage] as? HVTImage)?.jpegData == (try Data(contentsOf: image)))
        }
        #expect(picked.info[.mediaMetadata] == nil)
      }
      // With allowsEditing, a picked photo is edited as a capture: the largest centred square.
      camera.controller.allowsEditing = true
      camera.controller.pick(items[0])
      let edited = try await camera.delegate.nextCapture(.image)
      #expect(edited.info[.cropRect] as? HVTRect == HVTRect(x: 80, y: 0, width: 480, height: 480))
      let editedImage = try #require(edited.info[.editedImage] as? HVTImage)
      let editedFile = camera.directory.appendingPathComponent("edited-pick.jpg")
      try editedImage.jpegData.write(to: editedFile)
      let editedReport = try await MediaInspector.discover(editedFile.path)
      #expect(editedReport.isJPEG && editedReport.size == "480x480", "\(editedReport)")
      // A picked movie no longer than videoMaximumDuration is delivered as it is; a longer one is cut to
      // its first videoMaximumDuration seconds, into a new file in the temporary folder.
      let savedSize = try #require(try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int)
      camera.controller.pick(items[1])
      let whole = try await camera.delegate.nextCapture(.movie)
      #expect(whole.info[.mediaURL] as? URL == saved, "\(whole.info)")
      camera.controller.videoMaximumDuration = 0.5
      camera.controller.pick(items[1])
      let cut = try #require(try await camera.delegate.nextCapture(.movie).info[.mediaURL] as? URL)
      defer { try? FileManager.default.removeItem(at: cut) }
      let temporary = FileManager.default.temporaryDirectory.standardizedFileURL
      #expect(
        cut.deletingLastPathComponent().standardizedFileURL == temporary
          && cut.lastPathComponent.hasPrefix(saved.deletingPathExtension().lastPathComponent + ".trimmed-"), "\(cut)")
      let cutVideo = try #require(try await MediaInspector.streams(cut.path).first { $0.type == "video" })
      #expect(cutVideo.duration <= 0.5 + 1.0 / 30 + 0.001 && cutVideo.duration >= 0.5 - 1.0 / 30, "\(cutVideo)")
      #expect(
        try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int == savedSize,
        "the album's movie is left as it was")
      camera.controller.allowsEditing = false
      // The library follows mediaTypes: only the photo with [.image], and a movie picked is refused.
      try camera.controller.setMediaTypes([.image])
      #expect(camera.controller.library.items.map(\.url) == [image])
      camera.controller.pick(items[1])
      let refused = try await camera.delegate.nextError()
      #expect(refused as? HVTCameraError == .mediaTypeNotEnabled(.movie), "\(refused)")
      try camera.controller.setMediaTypes([.image, .movie])
      // A file gone since it was listed: the delegate hears why.
      try FileManager.default.removeItem(at: image)
      camera.controller.pick(items[0])
      let error = try await camera.delegate.nextError()
      #expect("\(error)".contains(image.path), "\(error)")
      camera.controller.sourceType = .camera
    }
  }
}
