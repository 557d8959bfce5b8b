// Lists the SQL files of this folder, embedded in the binary (see Package.swift).

/// The SQL migrations of the StackJournal schema, embedded in the binary.
///
/// Every `NNNN_name.sql` file of the `Migrations/` folder is listed here, oldest first, and has an
/// `.embedInCode` rule in `Package.swift`. A test checks that the folder and this list agree.
public enum EmbeddedMigrations {
  /// Each migration's file name and bytes, oldest first.
  public static let files: [(name: String, bytes: [UInt8])] = [
    ("0001_initial.sql", PackageResources._001_initial_sql),
    ("0002_clustered_rows.sql", PackageResources._002_clustered_rows_sql),
    ("0003_time_without_index.sql", PackageResources._003_time_without_index_sql),
    ("0004_journal_by_number.sql", PackageResources._004_journal_by_number_sql),
    ("0005_presented_destinations.sql", PackageResources._005_presented_destinations_sql),
    ("0006_journaled_draws.sql", PackageResources._006_journaled_draws_sql),
  ]
}
