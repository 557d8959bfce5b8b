import ArgumentParser
import StackStorage

/// The durability modes `demo --durability` offers.
enum DurabilityChoice: String, ExpressibleByArgument, CaseIterable {
  case full
  case normal
  case group

  var value: Durability {
    switch self {
    case .full: .full
    case .normal: .normal
    case .group: .groupCommit()
    }
  }
}
