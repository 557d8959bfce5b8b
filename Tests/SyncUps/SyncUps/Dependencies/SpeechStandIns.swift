// Not part of SyncUps: the two types of Apple's Speech framework that SyncUps' features name, for
// platforms without that framework. The cases and raw values are the framework's.
#if !canImport(Speech)
  enum SFSpeechRecognizerAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case restricted = 2
    case authorized = 3
  }

  final class SFSpeechAudioBufferRecognitionRequest: Sendable {}
#endif
