#!/usr/bin/env python3
"""Writes docs/benchmarks.md (and its chart) from the raw figures of bench/run.sh.

    report.py --results bench/out/results.tsv --load bench/out/load.tsv --report docs/benchmarks.md ...

Every figure is the median of the runs. User CPU time is the figure the goals are judged on:
the machine the benchmark runs on may be shared, which stretches wall time but not the CPU
time a program needs. The chart is drawn with matplotlib when it can be imported (bench/.venv),
else with gnuplot when installed, else left out with a note. The hand-written findings
(profiles, before and after, what is missed and why) are kept in bench/findings.md and
appended as they are.
"""
import argparse
import os
import platform
import statistics
import subprocess
from collections import defaultdict

# What each case is, for the tables.
DESCRIPTIONS = {
    "cat": "`cat` of the .ics (reading the file)",
    "libical-lines": "libical: `icalparser_add_line`, one VCALENDAR at a time (streaming)",
    "libical-whole": "libical: `icalparser_parse_string` of the whole file",
    "sqlite-c": "SQLite from C: insert every row, then read them back (process)",
    "sqlite-insert": "SQLite from C: insert phase (one transaction, prepared statements)",
    "sqlite-read": "SQLite from C: read-back phase",
    "python-icalendar": "python-icalendar (newest, PyPI) parsing the .ics",
    "python-icalendar-debian": "python-icalendar (Debian) parsing the .ics",
    "vobject": "vobject parsing the .ics",
    "todoman": "todoman listing the vdir (cold cache)",
    "python-csv": "Python `csv`: read and write the CSV",
    "python-json": "Python `json`: load and dump the JSON",
    "python-jsonl": "Python `json`: loads and dumps each JSON Lines record",
    "validate": "remconv validate of the store",
    "migrate:0001": "remconv migrate up, oldest schema (0001) to the head",
    "vacuum-into": "sqlite3 `VACUUM INTO` copy of the same 0001 store",
    "migrate-sql": "sqlite3 running the released steps' SQL on the same 0001 store (one transaction)",
    "migrate-sql-checked": "the same SQL, then `PRAGMA integrity_check` of the result before COMMIT (512 MiB cache)",
    "sqlite3-import:csv": "sqlite3 shell `.import --csv` of the CSV into a new file (one table of texts)",
    "sqlite-store:csv": "SQLite from C: the CSV import's rows into a new store of remconv's schema (insert phase)",
}

# The second corpus (bench/generate_producers.py): its cases end in this suffix.
PRODUCERS = "@producers"


def split_corpus(case):
    """(the case's name in the first corpus, the corpus suffix or "")."""
    if case.endswith(PRODUCERS):
        return case[:-len(PRODUCERS)], PRODUCERS
    return case, ""


# The reference each remconv case is compared with: (label, list of cases summed), in the
# case's own corpus.
def references(case):
    base, suffix = split_corpus(case)
    return [(label, [ref if ref.startswith("@") else ref + suffix for ref in refs])
            for label, refs in references_first_corpus(base)]


def references_first_corpus(case):
    kind, _, detail = case.partition(":")
    if kind == "import":
        if detail == "ics":
            return [("libical-lines + SQLite insert", ["libical-lines", "sqlite-insert"]),
                    ("python-icalendar", ["python-icalendar"])]
        return [("SQLite insert", ["sqlite-insert"])]
    if kind == "reimport":
        return [("first import", ["import:" + detail])]
    if kind == "convert":
        source, _, target = detail.partition(">")
        if source == "ics":
            return [("libical-lines", ["libical-lines"]), ("python-icalendar", ["python-icalendar"])]
        return [("Python " + source, ["python-" + source])]
    if kind == "export":
        return [("SQLite read", ["sqlite-read"])]
    if case == "validate":
        return [("fastest export", ["@fastest-export"])]
    if case == "migrate:0001":
        return [("VACUUM INTO", ["vacuum-into"]), ("the steps' SQL", ["migrate-sql"]),
                ("the steps' SQL and the full check", ["migrate-sql-checked"])]
    return []


def describe(case):
    base, suffix = split_corpus(case)
    if suffix:
        return describe(base) + " — *producers' corpus*"
    if case in DESCRIPTIONS:
        return DESCRIPTIONS[case]
    kind, _, detail = case.partition(":")
    if kind == "import":
        return "remconv import %s into a new store" % detail
    if kind == "reimport":
        return "remconv import %s again (nothing changes)" % detail
    if kind == "convert":
        source, _, target = detail.partition(">")
        return "remconv convert %s to %s" % (source, target)
    if kind == "export":
        return "remconv export --format %s" % detail
    return case


def is_remconv(case):
    return ":" in case or case == "validate"


def is_interactive(case):
    """Whether the case is one of issue 26's views, counts and searches run by remconv."""
    return case.split(":")[0] in ("view", "count", "search") and "@" not in case


def load_results(path):
    figures = defaultdict(list)
    failed = set()
    with open(path) as source:
        next(source)
        for line in source:
            size, case, _round, wall, user, system, rss, status = line.rstrip("\n").split("\t")
            if status != "0":
                failed.add((int(size), case))
                continue
            try:
                figures[(int(size), case)].append((float(wall), float(user), float(system), int(rss)))
            except ValueError:
                failed.add((int(size), case))
    medians = {}
    for key, runs in figures.items():
        medians[key] = {
            "wall": statistics.median(r[0] for r in runs),
            "user": statistics.median(r[1] for r in runs),
            "sys": statistics.median(r[2] for r in runs),
            # CPU time, user and system, of each run.
            "cpu": statistics.median(r[1] + r[2] for r in runs),
            "rss": statistics.median(r[3] for r in runs) / 1024.0,
            "runs": len(runs),
        }
    return medians, failed


def reference_figure(medians, size, cases, metric):
    total = 0.0
    for case in cases:
        if case == "@fastest-export":
            exports = [v[metric] for (s, c), v in medians.items() if s == size and c.startswith("export:")]
            if not exports:
                return None
            total += min(exports)
            continue
        figure = medians.get((size, case))
        if figure is None:
            return None
        total += figure[metric]
    return total


def seconds(value):
    if value is None:
        return "–"
    return "%.3f" % value if value < 10 else "%.1f" % value


def rate(size, value):
    if not value:
        return "–"
    per_second = size / value
    if per_second >= 1e6:
        return "%.2fM" % (per_second / 1e6)
    if per_second >= 1e3:
        return "%.0fk" % (per_second / 1e3)
    return "%.0f" % per_second


def ratio(value, reference):
    if value is None or not reference:
        return None
    return value / reference


def size_label(size):
    if size >= 1000000 and size % 1000000 == 0:
        return "%dM" % (size // 1000000)
    if size >= 1000 and size % 1000 == 0:
        return "%dk" % (size // 1000)
    return str(size)


class Goal:
    """One goal of issue 11: a measured figure against a limit, judged on user CPU time."""

    def __init__(self, text, size, measured, limit, unit="s", note=""):
        # Times are user CPU seconds unless the text says otherwise.
        self.text, self.size, self.measured, self.limit, self.unit, self.note = text, size, measured, limit, unit, note

    def row(self):
        if self.limit == 0:
            return "| %s | %s | %s | – | not judged: the reference is below the timer's resolution (0.01 s)%s |" % (
                self.text, size_label(self.size), "–" if self.measured is None else "%.3f s" % self.measured,
                "; " + self.note if self.note else "")
        if self.measured is None or self.limit is None:
            return "| %s | %s | – | – | not measured in this run%s |" % (
                self.text, size_label(self.size), "; " + self.note if self.note else "")
        verdict = "**met**" if self.measured <= self.limit else "**missed**"
        fmt = "%.1f MB" if self.unit == "MB" else "%.3f s"
        return "| %s | %s | %s | %s | %s (%.2fx the limit)%s |" % (
            self.text, size_label(self.size), fmt % self.measured, fmt % self.limit, verdict,
            self.measured / self.limit if self.limit else 0, "; " + self.note if self.note else "")


def goals(medians, largest):
    def user(size, case, metric="user"):
        figure = medians.get((size, case))
        return figure[metric] if figure else None

    def rss(size, case):
        figure = medians.get((size, case))
        return figure["rss"] if figure else None

    def scaled(factor, *values):
        if any(value is None for value in values):
            return None
        return factor * sum(values)

    result = []
    result.append(Goal(
        "import of the .ics into a new store ≤ 1.5 × (libical streaming parse + SQLite insert floor)", 100000,
        user(100000, "import:ics"), scaled(1.5, user(100000, "libical-lines"), user(100000, "sqlite-insert"))))
    result.append(Goal(
        "the same on the producers' corpus (bench/generate_producers.py)", 100000,
        user(100000, "import:ics" + PRODUCERS),
        scaled(1.5, user(100000, "libical-lines" + PRODUCERS), user(100000, "sqlite-insert" + PRODUCERS))))
    result.append(Goal(
        "convert .ics → CSV ≤ 1.3 × libical streaming parse", 1000000,
        user(1000000, "convert:ics>csv"), scaled(1.3, user(1000000, "libical-lines"))))
    for source in ("csv", "jsonl"):
        result.append(Goal(
            "convert %s → %s faster than Python's %s (read + write)" % (source, source, "csv" if source == "csv" else "json"),
            largest, user(largest, "convert:%s>%s" % (source, source)), user(largest, "python-" + source)))
        result.append(Goal(
            "import of the %s ≤ 1.3 × SQLite insert floor" % source, largest,
            user(largest, "import:" + source), scaled(1.3, user(largest, "sqlite-insert"))))
    for source in ("ics", "csv", "json", "jsonl", "opml", "ics" + PRODUCERS):
        result.append(Goal(
            "re-import of unchanged %s ≤ 0.5 × first import" % source.replace(PRODUCERS, " (producers' corpus)"), largest,
            user(largest, "reimport:" + source), scaled(0.5, user(largest, "import:" + source))))
    streaming = sorted({case for (_, case) in medians if case.split(":")[0] in ("import", "export", "convert")})
    for case in streaming:
        big, small = rss(1000000, case), rss(100000, case)
        limit = None if small is None else min(1.2 * small, 64.0)
        result.append(Goal("peak RSS of %s ≤ min(1.2 × at 100k, 64 MB)" % case, 1000000, big, limit, unit="MB"))
    exports = [medians[(largest, c)]["user"] for (s, c) in medians if s == largest and c.startswith("export:")]
    result.append(Goal(
        "validate of the store faster than its fastest export", largest, user(largest, "validate"),
        min(exports) if exports else None, note="" if medians.get((largest, "validate")) else "no `remconv validate` in this build"))
    # Issue 26: views, counts and search beside the sqlite3 shell's same query (CPU time, user and
    # system: the machine is shared, which stretches wall time), and beside Taskwarrior and todoman
    # at 10k (wall time, what a person waits).
    interactive = sorted({case for (_, case) in medians if is_interactive(case)})
    for size in (100000, 1000000):
        for case in interactive:
            if (size, case) in medians and (size, case + "@sqlite3") in medians:
                result.append(Goal(
                    "%s ≤ 3 × the sqlite3 shell's same query (CPU time, user + system)" % case, size,
                    user(size, case, "cpu"), scaled(3.0, user(size, case + "@sqlite3", "cpu"))))
    for peer in ("taskwarrior", "todoman"):
        for case in sorted(c for (s, c) in medians if s == 10000 and c.endswith("@" + peer)):
            mine = case.split("@")[0]
            result.append(Goal(
                "%s faster than %s (`%s`, wall time)" % (mine, peer, case), 10000, user(10000, mine, "wall"),
                user(10000, case, "wall")))
    steps_sql, copy = user(largest, "migrate-sql", "wall"), user(largest, "vacuum-into", "wall")
    result.append(Goal(
        "migrate from the oldest schema ≤ 3 × VACUUM INTO (wall time: a copy spends little CPU)", largest,
        user(largest, "migrate:0001", "wall"), scaled(3.0, copy),
        note="the steps' SQL alone in sqlite3: %s s, %.1fx VACUUM INTO" % (seconds(steps_sql), steps_sql / copy)
        if steps_sql and copy else ""))
    # Issue 26's 1.5x of the steps' SQL keeps the full integrity_check of the result, which the
    # shell's SQL alone does not run: the shell running both is the floor that check leaves, so
    # it is shown beside the goal, and the goal that can hold is judged against it.
    migrate, sql, checked = (user(largest, case, "cpu") for case in ("migrate:0001", "migrate-sql", "migrate-sql-checked"))
    result.append(Goal(
        "migrate from the oldest schema ≤ 1.5 × the steps' SQL in the sqlite3 shell (CPU time, user + system)",
        largest, migrate, scaled(1.5, sql),
        note="the shell's SQL and full integrity_check alone: %.2fx the SQL" % (checked / sql) if checked and sql else ""))
    result.append(Goal(
        "migrate from the oldest schema ≤ 1.2 × the steps' SQL and the full integrity_check of the result, "
        "both in the sqlite3 shell (CPU time, user + system)", largest, migrate, scaled(1.2, checked)))
    # Issue 26's CSV import against the shell's `.import`, which writes one table of texts with no
    # index: SQLite's own part of the same rows into the store's schema is shown beside it, and
    # the goal that can hold is judged against that part.
    imported, shell, store = (user(100000, case) for case in ("import:csv", "sqlite3-import:csv", "sqlite-store:csv"))
    result.append(Goal(
        "import of the CSV ≤ 2 × the sqlite3 shell's `.import --csv` of the same file (user CPU)", 100000,
        imported, scaled(2.0, shell),
        note="SQLite's part alone, the same rows into the store's schema: %.2fx `.import`" % (store / shell)
        if store and shell else ""))
    result.append(Goal(
        "import of the CSV ≤ 2 × SQLite's insert of the same rows into the store's schema (user CPU)", 100000,
        imported, scaled(2.0, store)))
    return result


def load_instructions(path):
    """The instruction counts of bench/run.sh: {case: count} at one size, and that size."""
    counts, size = {}, None
    if not path or not os.path.exists(path):
        return counts, size
    with open(path) as source:
        next(source)
        for line in source:
            row_size, case, instructions, status = line.rstrip("\n").split("\t")
            if status == "0" and instructions.isdigit() and int(instructions) > 0:
                counts[case], size = int(instructions), int(row_size)
    return counts, size


def instruction_goals(counts):
    """The goals that compare remconv with a limit or a peer, by instructions: (text, measured, limit)."""
    def total(*cases):
        return sum(counts[case] for case in cases) if all(case in counts for case in cases) else None

    def scaled(factor, value):
        return None if value is None else factor * value

    rows = [
        ("import of the .ics ≤ 1.5 × (libical streaming parse + SQLite insert floor)",
         total("import:ics"), scaled(1.5, total("libical-lines", "sqlite-insert"))),
        ("the same on the producers' corpus (bench/generate_producers.py)", total("import:ics" + PRODUCERS),
         scaled(1.5, total("libical-lines" + PRODUCERS, "sqlite-insert" + PRODUCERS))),
        ("convert .ics → CSV ≤ 1.3 × libical streaming parse",
         total("convert:ics>csv"), scaled(1.3, total("libical-lines"))),
        ("the same on the producers' corpus", total("convert:ics>csv" + PRODUCERS),
         scaled(1.3, total("libical-lines" + PRODUCERS))),
        ("convert csv → csv below Python's csv (read + write)", total("convert:csv>csv"), total("python-csv")),
        ("convert jsonl → jsonl below Python's json (read + write)", total("convert:jsonl>jsonl"), total("python-jsonl")),
        ("import of the csv ≤ 1.3 × SQLite insert floor", total("import:csv"), scaled(1.3, total("sqlite-insert"))),
        ("import of the jsonl ≤ 1.3 × SQLite insert floor", total("import:jsonl"), scaled(1.3, total("sqlite-insert"))),
    ]
    for source in ("ics", "csv", "jsonl", "ics" + PRODUCERS):
        rows.append(("re-import of unchanged %s ≤ 0.5 × first import" % source.replace(PRODUCERS, " (producers' corpus)"),
                     total("reimport:" + source), scaled(0.5, total("import:" + source))))
    return rows


def instruction_lines(counts, size, commit):
    if not counts:
        return ["Not counted in this run (no valgrind)."]

    def giga(value):
        return "–" if value is None else "%.3f G" % (value / 1e9)

    lines = ["Instructions executed (valgrind's callgrind, children included) on the %s files: the same for the"
             " same binary and input whatever the machine's load, so they show what a change did between two"
             " runs; the goals above are judged on time." % size_label(size), "",
             "| goal | measured | limit | result |", "| --- | ---: | ---: | --- |"]
    for text, measured, limit in instruction_goals(counts):
        if measured is None or not limit:
            lines.append("| %s | – | – | not counted |" % text)
            continue
        verdict = "within" if measured <= limit else "over"
        lines.append("| %s | %s | %s | %s (%.2fx the limit) |" % (text, giga(measured), giga(limit), verdict, measured / limit))
    def mega(value):
        return "{:,.1f} M".format(value / 1e6)

    before = load_before(size)
    if not before:
        lines += ["", "| case | instructions |", "| --- | ---: |"]
        for case in sorted(counts, key=lambda c: (is_remconv(c), c)):
            lines.append("| %s | %s |" % (describe(case), giga(counts[case])))
        return lines
    lines += ["", "Each case beside its count before issue 20 (bench/instructions-before-issue-20.tsv, with the commit"
              " counted; issue 20's budget: within 3 %%), this run counting commit `%s`:" % commit, "",
              "| case | before issue 20 | counted at | this run | change |", "| --- | ---: | --- | ---: | ---: |"]
    for case in sorted(counts, key=lambda c: (is_remconv(c), c)):
        if case in before:
            count, commit = before[case]
            change = "%+.2f %%" % (100.0 * (counts[case] - count) / count)
            lines.append("| %s | %s | %s | %s | %s |" % (describe(case), mega(count), commit, mega(counts[case]), change))
        else:
            lines.append("| %s | – | – | %s | – |" % (describe(case), mega(counts[case])))
    return lines


def load_before(size):
    """The counts at 10k before issue 20: {case: (instructions, commit)}; empty at another size."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "instructions-before-issue-20.tsv")
    if size != 10000 or not os.path.exists(path):
        return {}
    before = {}
    with open(path) as source:
        rows = [line.rstrip("\n").split("\t") for line in source if not line.startswith("#")]
    for case, instructions, commit in rows[1:]:
        before[case] = (int(instructions), commit)
    return before


def machine(args, load_path):
    lines = []
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = "unknown"
    try:
        with open("/proc/meminfo") as info:
            kilobytes = int(info.readline().split()[1])
            memory = "%.0f GB" % (kilobytes / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    loads = []
    try:
        with open(load_path) as source:
            next(source)
            loads = [float(line.split("\t")[1]) for line in source if line.strip()]
    except (OSError, StopIteration, ValueError, IndexError):
        pass

    def version(command):
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "unknown"

    lines.append("- Date: %s; commit `%s`; %s build; each figure is the median of its runs (up to %s; the tables say how many); the run took %.0f min." % (
        args.date, args.commit, args.config, args.runs, args.seconds / 60.0))
    lines.append("- Machine: %s cores (`nproc`), %s, %s of memory, %s %s." % (
        os.cpu_count(), model, memory, platform.system(), platform.release()))
    if loads:
        lines.append("- Load average (1 min) during the run: min %.1f, median %.1f, max %.1f, over %d samples: "
                     "the machine was shared, so wall times are stretched; user CPU time is the figure to trust." % (
                         min(loads), statistics.median(loads), max(loads), len(loads)))
    lines.append("- Versions: libical %s, SQLite %s, Python %s; python-icalendar %s (PyPI) and %s (Debian); vobject %s; todoman %s." % (
        version(["pkg-config", "--modversion", "libical"]), version(["sqlite3", "--version"]).split(" ")[0],
        platform.python_version(), args.icalendar_version, args.debian_icalendar_version, args.vobject_version,
        version(["todoman", "--version"]).replace("todoman, version ", "")))
    return lines


def table(medians, failed, size):
    cases = sorted({case for (s, case) in medians if s == size} | {case for (s, case) in failed if s == size},
                   key=lambda c: (is_remconv(c), c))
    lines = [
        "| case | runs | wall s | user s | peak RSS MB | items/s (wall) | items/s (CPU) | compared with (user CPU) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for case in cases:
        figure = medians.get((size, case))
        if figure is None:
            lines.append("| %s | failed | | | | | | |" % describe(case))
            continue
        comparisons = []
        for label, refs in references(case):
            value = ratio(figure["user"], reference_figure(medians, size, refs, "user"))
            if value is not None:
                comparisons.append("%.2fx %s" % (value, label))
        lines.append("| %s | %d | %s | %s | %.1f | %s | %s | %s |" % (
            describe(case), figure["runs"], seconds(figure["wall"]), seconds(figure["user"]), figure["rss"],
            rate(size, figure["wall"]), rate(size, figure["user"]), "; ".join(comparisons)))
    return lines


def views_table(medians, size):
    """Issue 26's views, counts and searches at one size: remconv beside the sqlite3 shell running
    the same query on the same store, and beside Taskwarrior and todoman where they ran."""
    cases = sorted(c for (s, c) in medians if s == size and is_interactive(c))
    if not cases:
        return []

    def pair(figure):
        return "%s / %s" % (seconds(figure["wall"]), seconds(figure["cpu"])) if figure else "–"

    def times(value, reference):
        quotient = ratio(value, reference)
        # /usr/bin/time counts hundredths of a second: a smaller reference gives no ratio.
        return "%.1fx" % quotient if quotient is not None and reference >= 0.01 else "–"

    lines = [
        "| case | remconv wall / CPU s | sqlite3 shell wall / CPU s | ratio wall / CPU | Taskwarrior wall s | todoman wall s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for case in cases:
        mine, shell = medians[(size, case)], medians.get((size, case + "@sqlite3"))
        ratios = "%s / %s" % (times(mine["wall"], shell["wall"]), times(mine["cpu"], shell["cpu"])) if shell else "–"
        peers = []
        for peer in ("taskwarrior", "todoman"):
            figure = medians.get((size, case + "@" + peer))
            peers.append("%s (%s)" % (seconds(figure["wall"]), times(mine["wall"], figure["wall"])) if figure else "–")
        lines.append("| `%s` | %s | %s | %s | %s | %s |" % (case, pair(mine), pair(shell), ratios, *peers))
    return lines


CHART_CASES = ["import:ics", "import:csv", "import:jsonl", "convert:ics>csv", "convert:csv>csv", "export:json",
               "export:ics", "libical-lines", "sqlite-insert", "python-icalendar", "python-csv"]


def chart(medians, path, cases, metric, title):
    """A chart of `metric` (seconds) and peak RSS against size for `cases`: remconv's cases solid,
    the limits and peers dashed, a case and its references (CASE@…) in one colour."""
    sizes = sorted({s for (s, _) in medians})
    series = {case: [(s, medians[(s, case)]) for s in sizes if (s, case) in medians] for case in cases}
    series = {case: points for case, points in series.items() if len(points) >= 2}
    if not series:
        return "the run has fewer than two sizes: no chart"
    bases = sorted({case.split("@")[0] for case in series})

    def dashed(case):
        return "@" in case or not is_remconv(case)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plot
    except ImportError:
        return chart_gnuplot(series, path, metric, title, dashed, bases)
    figure, (time_axis, memory_axis) = plot.subplots(1, 2, figsize=(13, 5.5))
    for case, points in series.items():
        color = plot.cm.tab20(bases.index(case.split("@")[0]) % 20)
        style = "--" if dashed(case) else "-"
        time_axis.plot([p[0] for p in points], [p[1][metric] for p in points], style, marker="o", label=case,
                       color=color)
        memory_axis.plot([p[0] for p in points], [p[1]["rss"] for p in points], style, marker="o", label=case,
                         color=color)
    for axis, label in ((time_axis, "%s CPU time (s)" % metric_label(metric)), (memory_axis, "peak RSS (MB)")):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("items")
        axis.set_ylabel(label)
        axis.grid(True, which="both", alpha=0.3)
    memory_axis.axhline(64, color="grey", linewidth=0.8)
    time_axis.legend(fontsize=7)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    return None


def metric_label(metric):
    return "user + system" if metric == "cpu" else metric


def chart_gnuplot(series, path, metric, title, dashed, bases):
    try:
        subprocess.run(["gnuplot", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "neither matplotlib nor gnuplot is available: no chart"
    data = path + ".dat"
    with open(data, "w") as out:
        for case, points in series.items():
            out.write("# %s\n" % case)
            for size, figure in points:
                # A time below the timer's resolution cannot be drawn on a logarithmic axis.
                out.write("%d %f %f\n" % (size, max(figure[metric], 0.005), figure["rss"]))
            out.write("\n\n")
    plots = lambda column: ", ".join(
        "'%s' index %d using 1:%d with linespoints linecolor %d dashtype %d title '%s'" % (
            data, index, column, bases.index(case.split("@")[0]) + 1, 2 if dashed(case) else 1, case)
        for index, case in enumerate(series))
    script = "\n".join([
        "set terminal pngcairo size 1300,550 noenhanced", "set output '%s'" % path, "set multiplot layout 1,2 title \"%s\"" % title,
        "set logscale xy", "set xlabel 'items'", "set ylabel '%s CPU time (s)'" % metric_label(metric),
        "set key left top font ',7'", "plot " + plots(2), "set ylabel 'peak RSS (MB)'", "plot " + plots(3),
        "unset multiplot"])
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)
    return None


def main():
    parser = argparse.ArgumentParser()
    for name in ("results", "load", "notes", "report", "date", "commit", "config", "runs", "sizes",
                 "icalendar-version", "debian-icalendar-version", "vobject-version"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--instructions")
    args = parser.parse_args()
    medians, failed = load_results(args.results)
    sizes = sorted({s for (s, _) in medians} | {s for (s, _) in failed})
    largest = max(sizes) if sizes else 0
    chart_path = os.path.splitext(args.report)[0] + ".png"
    chart_problem = chart(medians, chart_path, CHART_CASES, "user",
                          "remconv (solid) against the limits and peers (dashed)")
    interactive = sorted({case for (_, case) in medians if is_interactive(case)})
    views_chart_path = os.path.splitext(args.report)[0] + "-views.png"
    views_chart_problem = chart(
        medians, views_chart_path, [c + suffix for c in interactive for suffix in ("", "@sqlite3")], "cpu",
        "issue 26: remconv views, counts and search (solid) against the sqlite3 shell running the same query (dashed)")

    out = ["# Benchmarks", "",
           "Generated by `make bench` (bench/run.sh, then bench/report.py); do not edit by hand: the findings at",
           "the end come from bench/findings.md. Rerun with `make bench` (15 to 30 minutes on the 2-core machines here) or",
           "`BENCH_SIZES=\"1000 10000\" make bench` for a quick look.", "",
           "The corpus is bench/generate.py's (every feature: many lists, all four due-date kinds, subtasks,",
           "notes with escapes and non-ASCII text, tags, URLs, alarms and recurrence rules), written as JSON Lines",
           "and turned into the other formats by remconv; the SQLite floor gets the same rows as TSV. The cases",
           "marked *producers' corpus* run on bench/generate_producers.py's .ics instead, written the way Apple,",
           "Nextcloud, tasks.org, Thunderbird and Outlook write (long notes in many scripts and emoji, lines folded",
           "inside multi-byte characters, absolute alarm triggers, Windows TZIDs); its JSON Lines, CSV and the",
           "floor's rows are remconv's reading of that file.", "",
           "## Machine and run", ""]
    out += machine(args, args.load)
    out += ["", "## Goals (issue 11)", "",
            "Judged on user CPU time (median), at the size the goal names (the largest size run otherwise).", "",
            "| goal | size | measured | limit | result |", "| --- | --- | ---: | ---: | --- |"]
    out += [goal.row() for goal in goals(medians, largest)]
    counts, counted_size = load_instructions(args.instructions)
    out += ["", "### The same goals by instructions", ""] + instruction_lines(counts, counted_size, args.commit)
    out += ["", "## Every figure", "",
            "Medians of the runs. *items/s* divides the size by the time; the last column compares the user CPU",
            "time with the limit or peer named (below 1 is faster)."]
    for size in sizes:
        out += ["", "### %s items" % size_label(size), ""] + table(medians, failed, size)
    if interactive:
        out += ["", "## Views, counts and search against the sqlite3 shell (issue 26)", "",
                "Medians of the runs. Each case beside the `sqlite3` shell running the query remconv runs for it",
                "on the same store file (bench/run.sh, `run_views_round`), and at 10k beside Taskwarrior and",
                "todoman; CPU is user + system time. A ratio needs a reference of at least 0.01 s (the timer's",
                "resolution)."]
        for size in sizes:
            lines = views_table(medians, size)
            if lines:
                out += ["", "### %s items" % size_label(size), ""] + lines
        out.append("")
        if views_chart_problem:
            out.append("No chart: %s." % views_chart_problem)
        else:
            out.append("![CPU time of the views against size, beside the sqlite3 shell](%s)" %
                       os.path.basename(views_chart_path))
    out += ["", "## Chart", ""]
    if chart_problem:
        out.append("No chart: %s." % chart_problem)
    else:
        out.append("![user CPU time and peak RSS against size](%s)" % os.path.basename(chart_path))
    with open(args.notes) as notes:
        noted = [line.strip() for line in notes if line.strip()]
    if noted:
        out += ["", "## Notes from the run", ""] + ["- " + line for line in noted]
    findings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "findings.md")
    if os.path.exists(findings):
        with open(findings) as source:
            out += ["", source.read().rstrip()]
    os.makedirs(os.path.dirname(os.path.abspath(args.report)), exist_ok=True)
    with open(args.report, "w") as target:
        target.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
