// The journal model is part of what `import StackStoragePostgres` brings.
@_exported import StackJournalCore
