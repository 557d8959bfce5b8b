// Lists the SQL files of this folder, embedded in the binary (see Package.swift).

/// The SQL migrations of the PostgreSQL journal schema, embedded in the binary.
///
/// Every `NNNN_name.sql` file of the `Migrations/postgres/` folder is listed here, oldest first,
/// and has an `.embedInCode` rule in `Package.swift`. A test checks that the folder and this list
/// agree.
public enum EmbeddedPostgresMigrations {
  /// Each migration's file name and bytes, oldest first.
  public static let files: [(name: String, bytes: [UInt8])] = [
    ("0001_initial.sql", PackageResources._001_initial_sql),
    ("0002_committed_append.sql", PackageResources._002_committed_append_sql),
    ("0003_checked_stack_changes.sql", PackageResources._003_checked_stack_changes_sql),
    ("0004_presented_destinations.sql", PackageResources._004_presented_destinations_sql),
    ("0005_journaled_draws.sql", PackageResources._005_journaled_draws_sql),
  ]
}
