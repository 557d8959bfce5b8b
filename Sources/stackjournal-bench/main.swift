// stackjournal-bench [record|groupcommit|restore|instructions|all …] [options]
//
// Prints throughput figures. Build in release: `swift run -c release stackjournal-bench`.
import Foundation

exit(await BenchmarkCommand.run(Array(CommandLine.arguments.dropFirst())))
