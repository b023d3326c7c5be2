import Foundation

/// The progress line of a long import or export: items done, the rate, and, when the total is
/// known, how far along the run is and about how long is left.
enum ProgressLine {
  /// `importing 12000 items (8000/s), 40%, about 3 s left`. `fraction` is the part done
  /// (0...1), nil when unknown; the estimate needs a few percent done to mean anything.
  static func text(verb: String, count: Int, elapsed: TimeInterval, fraction: Double?) -> String {
    let rate = Double(count) / max(elapsed, 0.001)
    var text = "\(verb) \(count) items (\(Int(rate))/s)"
    if let fraction, fraction >= 0.02, fraction <= 1 {
      let remaining = elapsed * (1 - fraction) / fraction
      text += ", \(Int(fraction * 100))%, about \(duration(remaining)) left"
    }
    return text
  }

  /// `4 s`, `2 min 5 s`, `1 h 3 min`.
  static func duration(_ seconds: TimeInterval) -> String {
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole) s" }
    if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
    return "\(whole / 3600) h \((whole % 3600) / 60) min"
  }
}

/// How far a process has read a file: the offset of the descriptor it reads the file with,
/// from Linux's `/proc/self/fdinfo`, against the file's size. The readers need not report
/// anything; a file read twice (iCalendar's pre-scan) is measured on the descriptor open now.
struct InputPosition {
  let path: String
  let size: Int64

  /// Nil unless `path` is a regular, non-empty file.
  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
    self.path = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    self.size = Int64(status.st_size)
  }

  /// The part read so far (0...1), nil when no descriptor of this process has the file open.
  func fraction() -> Double? {
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
    for name in descriptors {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
        target == path, let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + name, encoding: .utf8)
      else { continue }
      for line in info.split(separator: "\n") where line.hasPrefix("pos:") {
        guard let offset = Int64(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) else { return nil }
        return min(Double(offset) / Double(size), 1)
      }
    }
    return nil
  }
}
