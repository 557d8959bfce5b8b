// The journal model is part of what `import StackStorage` brings: the engine's API speaks it.
@_exported import StackJournalCore
