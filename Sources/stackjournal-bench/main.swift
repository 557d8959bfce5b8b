// stackjournal-bench [append|groupcommit|all …] [--count N] [--writers N]
//
// Prints throughput figures. Build in release: `swift run -c release stackjournal-bench`.
import Foundation

exit(BenchmarkCommand.run(Array(CommandLine.arguments.dropFirst())))
