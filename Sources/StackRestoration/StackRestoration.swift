// StackRestoration
