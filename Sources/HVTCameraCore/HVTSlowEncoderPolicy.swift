/// What a recording does when its movie encoder cannot keep up with the camera, and the encoders that
/// run all the time, a pre-roll's and the streams' (``HVTCameraController/slowEncoderPolicy``).
public enum HVTSlowEncoderPolicy: String, Sendable, Hashable, CaseIterable {
  /// Every frame goes into the movie (and the streams): up to 3 s of frames wait for the encoder in the
  /// queue before it, and then the camera's `tee` waits for it, so the preview and photos slow to the
  /// encoder's pace (and a simulated camera's timeline with them). A crash loses the frames waiting, too.
  /// For a movie read back frame by frame on a machine whose encoder may fall behind for a while (a test on
  /// a loaded machine).
  case keepEveryFrame
  /// The camera never waits for an encoder: frames it has no room for are left out at the queue before
  /// it (the recording branch's, the pre-roll's, the streams' encoder's), the others' timestamps
  /// untouched, so the preview and photos keep the camera's rate and the movie a true timeline, at a
  /// lower frame rate where the encoder fell behind. The backlog is bounded by 256 MiB or 3 s of frames,
  /// and by what the encoder has shown it takes in a second. The default.
  case leaveFramesOut
}
