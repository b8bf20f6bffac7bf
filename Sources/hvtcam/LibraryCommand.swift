import Foundation
import HVTCamera

/// `hvtcam library`: browses the photo library or the saved-photos album (``HVTMediaLibrary``) and picks
/// an item, as `UIImagePickerController` does with a library source type.
enum LibraryCommand {
  static let parser = CommandLineParser(
    command: "library",
    summary: """
      Browses the photos and movies of a library, newest first: the saved-photos album (the folders \
      HVTSavedPhotosAlbum saves to) or, with --source photo-library, the pictures and videos folders \
      (XDG_PICTURES_DIR, XDG_VIDEOS_DIR). Only files GStreamer reads as a photo or movie are listed. \
      list (the default) prints one line per item, numbered from 1; show N prints what item N is; pick N \
      makes the info dictionary a capture is delivered in (the file, and a thumbnail of the photo or of \
      the movie's first frame, which --thumbnail writes as a JPEG) and prints it. browse opens a window \
      with the items' pictures in a grid (arrow keys, Page Up/Down, Home/End move; Return, space or a \
      click picks; Escape cancels): a pick prints the item's path on stdout, as pick N does; stderr says \
      "showing N items", "selected K: PATH" as the selection moves, and "picked K" or "cancelled". With \
      --allows-editing, browse edits the pick as a picker with allowsEditing does: a photo gets its square \
      crop, and a picked movie first shows on a trim screen (Left/Right a second, , and . a frame, Home/End, \
      [ and ] put the trim's start and end at the playhead, a click or drag on the timeline; Return \
      chooses, Escape goes back to the grid), the trim at most --max-duration long; the cut movie is a new \
      file in the temporary folder, whose path is printed; the library's file is left as it was. The pictures are \
      shared with GNOME Files and KDE through the freedesktop thumbnail cache, \
      $XDG_CACHE_HOME/thumbnails (~/.cache/thumbnails): browse reads current entries, and browse and \
      pick store what they decode.

      --json prints one JSON document (keys sorted): {"version": 1, "source": "savedPhotosAlbum"| \
      "photoLibrary", "items": [ITEM…]} for list, {"version": 1, "item": ITEM} for show, and for pick \
      {"version": 1, "item": ITEM, "thumbnail": {"width": W, "height": H, "bytes": N}}; an ITEM is \
      {"index": N, "path": "…", "mediaType": "image"|"movie", "width": W|null, "height": H|null, \
      "duration": SECONDS|null, "audioStreams": N, "bytes": N, "modified": "ISO 8601"}.
      """,
    options: [
      .init(
        names: ["--source"], valueName: "album|photo-library",
        help: "Which library (default album, the saved-photos album)."),
      .init(
        names: ["--media-types"], valueName: "image,movie",
        help: "Which items to show, list and pick, as a picker's mediaTypes (default both)."),
      .init(names: ["--thumbnail"], valueName: "PATH", help: "pick: write the thumbnail JPEG there."),
      .init(
        names: ["--allows-editing"], valueName: nil,
        help: "browse: photos get a square crop, movies a trim on a trim screen."),
      .init(
        names: CameraOptions.maxDuration.names, valueName: CameraOptions.maxDuration.valueName,
        help: "browse --allows-editing: the longest trim, \(HVTCaptureLimits.recordingDuration) (default 600)."),
      .init(names: ["--json"], valueName: nil, help: "Print the JSON document described above."),
    ],
    operands: "[list | show N | pick N | browse]")

  /// The version of the JSON document's shape; raised when a key changes meaning or disappears.
  static let jsonVersion = 1

  static func run(_ arguments: ParsedArguments) async throws {
    let source: HVTCameraController.SourceType =
      try arguments.choice("--source", from: ["album", "photo-library"], default: "album") == "album"
      ? .savedPhotosAlbum : .photoLibrary
    let mediaTypes = try Self.mediaTypes(arguments["--media-types"])
    let library = HVTMediaLibrary(source, mediaTypes: mediaTypes)
    let json = arguments.flag("--json")
    switch arguments.operands.first ?? "list" {
    case "list" where arguments.operands.count <= 1:
      // Each line as soon as its item is read; a stop signal ends the listing at the next item.
      var documents: [[String: Any]] = []
      let count = try scan(library) { item, index in
        if json { documents.append(describe(item, index: index)) } else { Console.out(line(item, index: index)) }
        return true
      }
      if json {
        try printJSON(["source": "\(source)", "items": documents])
      } else if count == 0 {
        Console.out(
          "No photos or movies in the \(source == .savedPhotosAlbum ? "saved-photos album" : "photo library").")
      }
    case "show" where arguments.operands.count == 2:
      let (item, index) = try pickItem(arguments.operands[1], of: library)
      if json { try printJSON(["item": describe(item, index: index)]) } else { Console.out(line(item, index: index)) }
    case "pick" where arguments.operands.count == 2:
      let (item, index) = try pickItem(arguments.operands[1], of: library)
      let info = try HVTMediaLibrary.info(for: item)
      guard let thumbnail = info[.thumbnail] as? HVTImage else {
        throw HVTCameraError.unexpected("no thumbnail was made of \(item.url.path)")
      }
      if let path = arguments["--thumbnail"] {
        try FileWriting.write(thumbnail.jpegData, to: path, replacing: false)
      }
      let size = ["width": thumbnail.width, "height": thumbnail.height, "bytes": thumbnail.jpegData.count]
      if json {
        try printJSON(["item": describe(item, index: index), "thumbnail": size])
      } else {
        Console.out(Console.escaped(item.url.path))
        Console.error("picked \(line(item, index: index)); thumbnail \(thumbnail.width)x\(thumbnail.height)")
      }
    case "browse" where arguments.operands.count == 1:
      let limit = try arguments.seconds("--max-duration", in: HVTCaptureLimits.recordingDuration)
      try await browse(
        source, mediaTypes: mediaTypes, editing: arguments.flag("--allows-editing"), videoMaximumDuration: limit)
    default:
      throw UsageError("hvtcam library: give list, show N, pick N or browse (see hvtcam library --help)")
    }
  }

  /// Opens the library window through the controller (``HVTCameraController/sourceType`` a library,
  /// a window preview; `editing` its ``HVTCameraController/allowsEditing``, with trims at most
  /// `videoMaximumDuration` long) and waits until the user picks or cancels.
  @MainActor private static func browse(
    _ source: HVTCameraController.SourceType, mediaTypes: [HVTMediaType], editing: Bool, videoMaximumDuration: Double?
  ) async throws {
    let controller = try HVTCameraController()
    controller.sourceType = source
    try controller.setMediaTypes(mediaTypes)
    controller.allowsEditing = editing
    if let videoMaximumDuration { controller.videoMaximumDuration = videoMaximumDuration }
    controller.previewOutput = .window(title: "hvtcam library")
    let browsing = LibraryBrowsing(controller: controller)
    try await controller.presentAndWait()
    try await browsing.untilFinished()
  }

  /// The media types `--media-types` names (`image`, `movie`, or both with a comma); both without it.
  private static func mediaTypes(_ text: String?) throws -> [HVTMediaType] {
    guard let text else { return [.image, .movie] }
    var types: [HVTMediaType] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      switch name {
      case "image": types.append(.image)
      case "movie": types.append(.movie)
      default:
        throw UsageError("hvtcam library: --media-types \(text): give image, movie or image,movie")
      }
    }
    return types
  }

  /// Hands `body` each item of `library` as it is read, with its 1-based index, until `body` returns
  /// `false`; returns how many it handed over. A stop signal ends the scan at the next item (``Interrupted``).
  private static func scan(_ library: HVTMediaLibrary, _ body: (HVTAlbumItem, Int) throws -> Bool) throws -> Int {
    var count = 0
    try library.forEachItem { item in
      if let signal = StopSignals.shared.received { throw Interrupted(signal: signal, when: "after \(count) items") }
      count += 1
      return try body(item, count)
    }
    return count
  }

  /// Item `text` (1-based) of `library`, read up to it, or a usage error naming the range.
  private static func pickItem(_ text: String, of library: HVTMediaLibrary) throws -> (HVTAlbumItem, Int) {
    var found: HVTAlbumItem?
    let wanted = Int(text) ?? 0
    let count =
      wanted >= 1
      ? try scan(library) { item, index in
        if index == wanted { found = item }
        return found == nil
      } : 0
    guard let found else {
      throw UsageError("hvtcam library: no item \(text): the library has \(count) (numbered from 1)")
    }
    return (found, wanted)
  }

  /// `3  movie  640x480  2.00 s  1 sound  2026-12-03T10:00:00Z  /path` (the path escaped: ``Console/escaped(_:)``).
  private static func line(_ item: HVTAlbumItem, index: Int) -> String {
    let size = item.width.flatMap { width in item.height.map { "\(width)x\($0)" } } ?? "?"
    let duration = item.duration.map { String(format: "  %.2f s", $0) } ?? ""
    let sound = item.mediaType == .movie ? "  \(item.audioStreams) sound" : ""
    return
      "\(index)  \(kind(item))  \(size)\(duration)\(sound)  \(date(item.modified))  \(Console.escaped(item.url.path))"
  }

  /// One item for the JSON documents.
  private static func describe(_ item: HVTAlbumItem, index: Int) -> [String: Any] {
    [
      "index": index, "path": item.url.path, "mediaType": kind(item),
      "width": item.width ?? NSNull(), "height": item.height ?? NSNull(), "duration": item.duration ?? NSNull(),
      "audioStreams": item.audioStreams, "bytes": item.fileSize, "modified": date(item.modified),
    ]
  }

  /// `image` or `movie`.
  private static func kind(_ item: HVTAlbumItem) -> String { item.mediaType == .movie ? "movie" : "image" }

  private static func date(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

  private static func printJSON(_ document: [String: Any]) throws {
    let data = try JSONSerialization.data(
      withJSONObject: document.merging(["version": jsonVersion]) { $1 },
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    Console.out(String(decoding: data, as: UTF8.self))
  }
}
