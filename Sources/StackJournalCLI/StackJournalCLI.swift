// StackJournalCLI
