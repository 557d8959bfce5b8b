// StackStorage
