// StackJournalTestSupport
