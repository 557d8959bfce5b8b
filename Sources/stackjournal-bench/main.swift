// stackjournal-bench [record|groupcommit|restore|instructions|timestamps|all …] [options]
//
// Prints throughput figures. Build in release: `swift run -c release stackjournal-bench`.
import Foundation

// The main thread waits for the sections instead of `await`ing at top level: a top-level
// `await` parks the main thread in dispatch's signal wait, which valgrind (the `instructions`
// section's callgrind runs) cannot run.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(try! runAsync { await BenchmarkCommand.run(arguments) })
