// The Composable Architecture's SyncUps at tag 1.9.3 (Examples/SyncUps/SyncUps/Meeting.swift),
// as TCA writes it, with these changes for Linux:
// * `import ComposableArchitecture` is `import StackNavigation`;
// * `MeetingView` and `import SwiftUI` are kept out where SwiftUI is missing, and Foundation is imported instead.
import StackNavigation
#if canImport(SwiftUI)
  import SwiftUI
#else
  import Foundation
#endif

#if canImport(SwiftUI)
struct MeetingView: View {
  let meeting: Meeting
  let syncUp: SyncUp

  var body: some View {
    ScrollView {
      VStack(alignment: .leading) {
        Divider()
          .padding(.bottom)
        Text("Attendees")
          .font(.headline)
        ForEach(self.syncUp.attendees) { attendee in
          Text(attendee.name)
        }
        Text("Transcript")
          .font(.headline)
          .padding(.top)
        Text(self.meeting.transcript)
      }
    }
    .navigationTitle(Text(self.meeting.date, style: .date))
    .padding()
  }
}
#endif
