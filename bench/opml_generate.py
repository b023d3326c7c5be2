#!/usr/bin/env python3
"""Writes a large outliner-style OPML file for benchmarks, deterministically.

    opml_generate.py ITEMS OUTPUT

The same ITEMS always gives the same bytes (a fixed linear congruential generator, no clock).
The file looks like an outliner's export, not remconv's: twenty top-level projects (lists),
their tasks, subtasks nested up to four levels, Workflowy's `_complete` and HTML in `text`,
OmniOutliner's `_status`, notes in `_note` with `&#10;` line breaks, quotes, ampersands and
non-ASCII text, Logseq markers with dates, and unknown attributes the reader keeps. ITEMS
counts outlines below the projects (the reminders remconv imports).
"""
import sys
from xml.sax.saxutils import quoteattr

PROJECTS = 20
WORDS = ["call", "email", "buy", "fix", "plan", "write", "read", "book", "pay", "send", "check",
         "clean", "water", "order", "renew", "draft", "café", "crème brûlée", "naïve", "Tōkyō",
         "Überweisung", "smørrebrød", "日本語", "🙂"]


class Sequence:
    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % bound


def attribute(value):
    # quoteattr escapes & < > and quotes; line breaks become &#10; as outliners write them.
    return quoteattr(value, {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def title(rng, index):
    words = " ".join(WORDS[rng.next(len(WORDS))] for _ in range(2 + rng.next(4)))
    style = rng.next(10)
    if style == 0:
        return "The <b>%s</b> task #%d" % (words, index)
    if style == 1:
        return 'Link to <a href="https://example.com/item?id=%d&amp;v=1">%s</a>' % (index, words)
    if style == 2:
        return "TODO [#B] %s #%d DEADLINE: <2027-%02d-%02d Mon>" % (words, index, 1 + rng.next(12), 1 + rng.next(28))
    return '%s "%s" & co #%d' % (words.capitalize(), WORDS[rng.next(len(WORDS))], index)


def outline(rng, index):
    attributes = [("text", title(rng, index))]
    if rng.next(3) == 0:
        attributes.append(("_note", "Line one of %d\nLine two, with a comma & an ampersand" % index))
    done = rng.next(5)
    if done == 0:
        attributes.append(("_complete", "true"))
    elif done == 1:
        attributes.append(("_status", "checked"))
    if rng.next(8) == 0:
        attributes.append(("color", str(rng.next(6))))
    return "<outline " + " ".join("%s=%s" % (name, attribute(value)) for name, value in attributes)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    items = int(sys.argv[1])
    rng = Sequence(20261129)
    with open(sys.argv[2], "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0">\n')
        out.write("  <head>\n    <title>Benchmark</title>\n  </head>\n  <body>\n")
        per_project = (items + PROJECTS - 1) // PROJECTS
        written = 0
        for project in range(PROJECTS):
            out.write('    <outline text="Project %02d">\n' % project)
            open_tasks = 0  # task outlines open inside the project: the new one's ancestors + 1
            count = min(per_project, items - written)
            for index in range(count):
                # A child of the previous task (up to four levels), its sibling, or its uncle.
                move = rng.next(4)
                if move == 0 and open_tasks <= 4:
                    level = open_tasks
                elif move == 1:
                    level = max(open_tasks - 2, 0)
                else:
                    level = max(open_tasks - 1, 0)
                while open_tasks > level:
                    open_tasks -= 1
                    out.write("      " + "  " * open_tasks + "</outline>\n")
                out.write("      " + "  " * level + outline(rng, written + index) + ">\n")
                open_tasks = level + 1
            while open_tasks > 0:
                open_tasks -= 1
                out.write("      " + "  " * open_tasks + "</outline>\n")
            out.write("    </outline>\n")
            written += count
        out.write("  </body>\n</opml>\n")


if __name__ == "__main__":
    main()
