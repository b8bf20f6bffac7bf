import Foundation
import HVTCamera

/// `hvtcam presets`: lists, shows and validates pipeline presets.
enum PresetsCommand {
  static let parser = CommandLineParser(
    command: "presets",
    summary: """
      Lists the pipeline presets (the user's in $XDG_CONFIG_HOME/hvtcam/pipelines, then the built-ins), \
      shows one (its file and the elements it resolves to here), or validates preset files, printing \
      every error of the first invalid one (exit 1).
      """,
    options: [], operands: "[show NAME | validate FILE…]")

  static func run(_ arguments: ParsedArguments) throws {
    switch arguments.operands.first {
    case nil:
      list()
    case "show":
      guard arguments.operands.count == 2 else { throw UsageError("hvtcam presets show: give one preset name or file") }
      try show(arguments.operands[1])
    case "validate":
      guard arguments.operands.count > 1 else { throw UsageError("hvtcam presets validate: give one or more files") }
      try validate(Array(arguments.operands.dropFirst()))
    case let other?:
      throw UsageError("hvtcam presets: unknown subcommand '\(other)' (show or validate)")
    }
  }

  /// One line per preset: name, where it comes from, what it is for.
  static func list() {
    let listings = HVTPreset.available()
    let width = listings.map(\.name.count).max() ?? 0
    for listing in listings {
      let origin = "(\(listing.origin.rawValue))".padding(toLength: 11, withPad: " ", startingAt: 0)
      Console.out(
        "\(listing.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\(origin)\(listing.summary)")
    }
  }

  /// The preset's file, then what each slot resolves to on this machine.
  static func show(_ nameOrPath: String) throws {
    let preset = try HVTPreset.named(nameOrPath)
    if let url = preset.url {
      Console.out("# \(url.path)")
      Console.write(try HVTPreset.text(contentsOf: url))
    }
    Console.out("# resolved here:")
    let slots: [(String, HVTElementSlot)] = [
      ("preview", preset.preview), ("photo.encoder", preset.photoEncoder), ("movie.encoder", preset.movieEncoder),
      ("movie.muxer", preset.muxer),
    ]
    for (key, slot) in slots {
      Console.out("#   \(key): \(slot.installed?.factory ?? "none installed") (of \(slot.description))")
    }
  }

  /// Validates each file in turn; stops at the first invalid one. The preset schema (`schema.json`) that
  /// sits among the presets is checked as JSON only.
  static func validate(_ paths: [String]) throws {
    for path in paths {
      let url = URL(fileURLWithPath: path)
      if url.lastPathComponent == "schema.json" {
        try HVTPreset.validateSchemaDocument(contentsOf: url)
        Console.out("\(path): ok (the preset schema)")
      } else {
        _ = try HVTPreset.load(contentsOf: url)
        Console.out("\(path): ok")
      }
    }
  }
}
