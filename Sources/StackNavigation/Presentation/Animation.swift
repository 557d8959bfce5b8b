#if canImport(SwiftUI)
  import SwiftUI
#else
  /// What SwiftUI would animate a change with. There is no view here to animate, so features
  /// written for SwiftUI keep compiling (`send(.delegate(.deleted), animation: .default)`) and
  /// the animation is ignored.
  public struct Animation: Hashable, Sendable {
    private let name: String

    /// The default animation.
    public static let `default` = Animation(name: "default")
    /// An animation that starts slowly.
    public static let easeIn = Animation(name: "easeIn")
    /// An animation that ends slowly.
    public static let easeOut = Animation(name: "easeOut")
    /// An animation that starts and ends slowly.
    public static let easeInOut = Animation(name: "easeInOut")
    /// An animation at a constant pace.
    public static let linear = Animation(name: "linear")
    /// A spring animation.
    public static let spring = Animation(name: "spring")
  }
#endif

extension Send {
  /// Sends an action back into the store; the animation is for a view layer, and none is here.
  public func callAsFunction(_ action: Action, animation: Animation?) async {
    await callAsFunction(action)
  }
}

extension ButtonState.Handler {
  /// Sends `action` (or nothing) when tapped; the animation is for a view layer, and none is
  /// here.
  public static func send(_ action: Action?, animation: Animation?) -> Self {
    Self(action: action)
  }
}
