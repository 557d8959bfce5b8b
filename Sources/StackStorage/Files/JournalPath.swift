import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a journal file's path is read: as a plain path, never as an SQLite URI, and as the real
/// file, symbolic links followed.
///
/// SQLite names a journal's `-wal` and `-shm` after the file a symbolic link points to, and reads
/// a name that starts with `file:` as a URI (when it was built with `SQLITE_USE_URI`, as Debian's
/// and Ubuntu's are). A check that looks beside the link, or at the literal `file:` name, meets
/// other files than SQLite opens: a reader finds no log beside the link and opens the file
/// `immutable`, missing every write still in the log; a writer checks `file:j.sqlite` and writes
/// `j.sqlite`. Resolved first, to the absolute path of the real file, the path names one file
/// for every check and for SQLite: an absolute path never starts with `file:`.
public enum JournalPath {
  /// The absolute path of the file `path` names, symbolic links followed: of the file itself
  /// when it exists; of its directory, followed by the file's name, when the file does not (a
  /// journal to be created, a dangling link, a loop of links, which the checks then report);
  /// `path` made absolute when the directory does not resolve either. A name that starts with
  /// `file:` is a file of that name. An empty path, or one ending with a slash, is returned as
  /// given, for the checks to refuse in their own words.
  public static func resolve(_ path: String) -> String {
    guard !path.isEmpty, !path.hasSuffix("/") else { return path }
    if let real = realPath(path) { return real }
    let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
    guard let slash = absolute.lastIndex(of: "/") else { return absolute }
    let name = absolute[absolute.index(after: slash)...]
    let directory = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
    guard !name.isEmpty, name != ".", name != "..", let real = realPath(directory) else {
      return absolute
    }
    return (real == "/" ? "" : real) + "/" + name
  }

  /// `realpath(3)` of `path`, or `nil` when something along it does not exist or loops.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  private static func currentDirectory() -> String {
    let directory = FileManager.default.currentDirectoryPath
    return directory.hasSuffix("/") ? String(directory.dropLast()) : directory
  }
}
