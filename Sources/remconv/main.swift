import Foundation
import RemconvCLI

let status = CLI.run(Array(CommandLine.arguments.dropFirst()), io: .standard())
exit(status.rawValue)
