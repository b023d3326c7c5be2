import Foundation

/// A run of the built `remconv` measured from outside, as an attacker's check would: its wall
/// time, the CPU time the kernel charged to it (user and system, GNU time's `%U` and `%S`), and
/// its peak resident memory from the kernel's accounting of the process (`ru_maxrss`, read by
/// GNU time's `%M`), which counts what C libraries allocate as well as Swift. All three are the
/// child's own: suites running in parallel in the test process change none of them, and the
/// CPU time does not grow when other builds share the cores (the wall time does).
public struct MeasuredOutcome: Sendable {
  /// The exit status; nil when the run was killed (over its time limit) or died of a signal
  /// (`SIGXCPU` over its CPU limit, a trap when an allocation failed under its memory limit).
  public let status: Int32?
  /// True when the run was still going at its time limit and was killed.
  public let timedOut: Bool
  public let seconds: Double
  /// User plus system CPU seconds of the child (infinity when GNU time reported none).
  public let cpuSeconds: Double
  public let peakMegabytes: Double
  public let output: String
  public let errors: String

  public var summary: String {
    "exit \(status.map(String.init) ?? "none")\(timedOut ? " (killed at the time limit)" : ""), "
      + "\(String(format: "%.2f", seconds)) s, CPU \(String(format: "%.2f", cpuSeconds)) s, peak \(String(format: "%.0f", peakMegabytes)) MB, "
      + "stderr: \(errors.prefix(400))"
  }
}

public enum MeasuredProcess {
  /// GNU time, which runs the command in a child of its own and reports that child's peak.
  /// The test process cannot be the parent: Linux carries the peak of the memory a process
  /// had before `exec` into it, and a child spawned from the test starts out sharing the
  /// test's (hundreds of MB), so `wait4` here would report the test's size, not remconv's.
  public static let timeCommand = "/usr/bin/time"

  /// util-linux's prlimit, which sets the child's own resource limits and then runs it (the
  /// same process: GNU time measures remconv itself).
  public static let limitCommand = "/usr/bin/prlimit"

  /// Limits the kernel enforces on the child alone, so that a runaway is stopped the same way
  /// however loaded the machine is: over `cpuSeconds` of CPU time it gets `SIGXCPU`, and past
  /// `addressSpaceMegabytes` of address space its allocations fail (Swift traps). Either way
  /// it ends by a signal, which a test sees as `status == nil`.
  public struct Limits: Sendable {
    public var cpuSeconds: Int
    public var addressSpaceMegabytes: Int

    public init(cpuSeconds: Int, addressSpaceMegabytes: Int) {
      self.cpuSeconds = cpuSeconds
      self.addressSpaceMegabytes = addressSpaceMegabytes
    }
  }

  /// Runs `remconv ARGUMENTS`, standard input from `/dev/null` and its output in files in
  /// `scratch`, killing it once it has run `timeLimit` seconds (a hang is a finding, not a
  /// stuck test run), under `limits` when given. Throws, naming it, when the binary, GNU time
  /// or prlimit is missing: a measurement that cannot be made fails, it is never skipped.
  public static func run(
    _ arguments: [String], scratch: String, timeLimit: Double, limits: Limits? = nil
  ) throws -> MeasuredOutcome {
    let binary = try RemconvBinary.required()
    _ = try BuiltProduct.require(timeCommand, product: "GNU time (apt install time)")
    var limitPrefix: [String] = []
    if let limits {
      _ = try BuiltProduct.require(limitCommand, product: "prlimit (util-linux)")
      limitPrefix = [
        limitCommand, "--cpu=\(limits.cpuSeconds)", "--as=\(limits.addressSpaceMegabytes << 20)", "--",
      ]
    }
    let outputPath = scratch + "/.measured-stdout"
    let errorPath = scratch + "/.measured-stderr"
    let peakPath = scratch + "/.measured-peak"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // Its own process group, so that a run over its time is killed with GNU time.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv =
      ([timeCommand, "-f", "%M %U %S", "-o", peakPath] + limitPrefix + [binary] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in environment { free(pointer) }
    }
    var pid = pid_t()
    let started = Date()
    guard posix_spawn(&pid, timeCommand, &actions, &attributes, argv, environment) == 0 else {
      throw CocoaError(.executableLoad)
    }
    var status: Int32 = 0
    var timedOut = false
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if waited < 0, errno != EINTR { throw CocoaError(.executableLoad) }
      if !timedOut, Date().timeIntervalSince(started) > timeLimit {
        timedOut = true
        kill(-pid, SIGKILL)
      }
      usleep(10_000)
    }
    let seconds = Date().timeIntervalSince(started)
    // The status word: the low seven bits are the signal that ended the process, or 0 when it
    // exited, with its status in the next eight.
    let exited = status & 0x7F == 0
    // GNU time writes "Command exited with non-zero status N" first, then the peak in KB and
    // the user and system seconds.
    let report = (try? String(contentsOfFile: peakPath, encoding: .utf8)) ?? ""
    let figures = (report.split(separator: "\n").last ?? "").split(separator: " ").map { Double($0) }
    let peak = figures.count == 3 ? figures[0] : nil
    let cpu = figures.count == 3 ? figures[1].flatMap { user in figures[2].map { user + $0 } } : nil
    // GNU time exits with 128 + the signal when remconv died of one.
    let killed = exited && !timedOut && report.contains("Command terminated by signal")
    return MeasuredOutcome(
      status: exited && !killed ? (status >> 8) & 0xFF : nil, timedOut: timedOut, seconds: seconds,
      cpuSeconds: cpu ?? .infinity, peakMegabytes: (peak ?? .infinity) / 1024,
      output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
      errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
  }
}
