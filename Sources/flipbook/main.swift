import FlipbookCommand

FlipbookTool.main(rawArguments: FlipbookTool.commandLineBytes)
