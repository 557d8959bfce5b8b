import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

nonisolated(unsafe) private var target: ((UnsafeBufferPointer<UInt8>) -> Void)?

/// Runs libFuzzer (linked without its own `main`, so the package's build tools link too) with
/// the process's arguments, calling `body` with each input; never returns.
public func runFuzzer(_ body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) -> Never {
  target = body
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  exit(
    runDriver(&argc, &argv) { data, size in
      target!(UnsafeBufferPointer(start: data, count: size))
      return 0
    })
}
