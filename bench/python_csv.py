#!/usr/bin/env python3
"""The baseline for the CSV benchmark: Python's csv module reading a file and writing it back.

    python_csv.py INPUT OUTPUT

It does only what any CSV round trip must (parse every record, quote every field that needs
it); remconv does that and more (types, validation, UIDs), so this is a floor, not a twin.
"""
import csv
import sys


def main():
    source, target = sys.argv[1], sys.argv[2]
    with open(source, newline="", encoding="utf-8-sig") as reader_file, \
         open(target, "w", newline="", encoding="utf-8") as writer_file:
        writer = csv.writer(writer_file, lineterminator="\n")
        for row in csv.reader(reader_file):
            writer.writerow(row)


if __name__ == "__main__":
    main()
