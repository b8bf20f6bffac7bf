extension HVTPreviewOutput {
  /// What the output stands for: ``automatic`` as its rule says for a preset whose preview slot is
  /// `presetPreview` and a process with `environment` (``WindowSink/candidates(environment:)``); any other
  /// output itself.
  func resolved(presetPreview: HVTElementSlot, environment: [String: String]) -> HVTPreviewOutput {
    guard case .automatic = self else { return self }
    if presetPreview.candidates.contains(where: { $0.factory != "fakesink" }) { return .preset }
    return WindowSink.candidates(environment: environment).isEmpty ? .none : .window()
  }
}
