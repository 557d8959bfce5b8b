// The presentation types' JSON: stable, documented, and read back equal (identities are not
// stored, and equality does not compare them).
import Foundation
import StackNavigation
import Testing

@Suite struct PresentationCodingTests {
  struct Screen: Equatable, Codable {
    @Presents var alert: AlertState<Choice>?
    var name = "screen"
  }

  enum Choice: String, Equatable, Codable {
    case keep, delete
  }

  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func nothingPresentedIsNull() throws {
    let screen = Screen()
    #expect(try Self.json(screen) == #"{"alert":null,"name":"screen"}"#)
    #expect(try JSONDecoder().decode(Screen.self, from: Data(Self.json(screen).utf8)) == screen)
  }

  @Test func anAlertIsItsTitleMessageAndButtons() throws {
    var screen = Screen()
    screen.alert = AlertState {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("It cannot be undone.")
    }
    let json = try Self.json(screen)
    #expect(
      json
        == #"{"alert":{"buttons":[{"action":"delete","label":"Delete","role":"destructive"},"#
        + #"{"label":"Cancel","role":"cancel"}],"message":"It cannot be undone.","#
        + #""title":"Delete?"},"name":"screen"}"#)
    let decoded = try JSONDecoder().decode(Screen.self, from: Data(json.utf8))
    #expect(decoded == screen)
    #expect(decoded.alert?.id != screen.alert?.id, "a decoded alert is a new alert")
  }

  @Test func aDialogKeepsItsTitleVisibility() throws {
    let dialog = ConfirmationDialogState<Choice>(titleVisibility: .visible) {
      TextState("Keep it?")
    } actions: {
      ButtonState(action: .keep) { TextState("Keep") }
    }
    let json = try Self.json(dialog)
    #expect(
      json
        == #"{"buttons":[{"action":"keep","label":"Keep"}],"title":"Keep it?","#
        + #""titleVisibility":"visible"}"#)
    let decoded = try JSONDecoder().decode(
      ConfirmationDialogState<Choice>.self, from: Data(json.utf8))
    #expect(decoded == dialog)
  }

  @Test func presentationActionsAreTheirCases() throws {
    let actions: [PresentationAction<Choice>] = [.dismiss, .presented(.keep)]
    let json = try Self.json(actions)
    #expect(json == #"[{"dismiss":{}},{"presented":{"_0":"keep"}}]"#)
    let decoded = try JSONDecoder().decode([PresentationAction<Choice>].self, from: Data(json.utf8))
    #expect(decoded == actions)
  }

  @Test func anUnknownRoleIsRefusedWithWhatItMayBe() throws {
    let json = #"{"label":"Go","role":"shiny"}"#
    #expect {
      try JSONDecoder().decode(ButtonState<Choice>.self, from: Data(json.utf8))
    } throws: { error in
      "\(error)".contains(#"A button's role is "cancel" or "destructive", not "shiny""#)
    }
  }
}
