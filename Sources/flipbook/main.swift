import FlipbookCommand

FlipbookTool.main(CommandLine.arguments.dropFirst().map { $0 })
