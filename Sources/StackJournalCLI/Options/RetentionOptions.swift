import ArgumentParser

/// The flags `compact` and `prune` share: plan only, or give the freed pages back afterwards.
struct RetentionOptions: ParsableArguments {
  @Flag(help: "Only report what would go; change nothing.")
  var dryRun = false

  @Flag(help: "Rebuild the file afterwards to give freed space back (needs room for a copy).")
  var vacuum = false

  init() {}
}
