#!/usr/bin/env python3
"""The baseline for JSON and JSON Lines: Python's json module reading a file and writing it back.

    json_roundtrip.py json INPUT OUTPUT     one document: json.load, then json.dump
    json_roundtrip.py jsonl INPUT OUTPUT    one object per line: json.loads and json.dumps each

Like bench/python_csv.py it only parses and serialises; remconv also checks types, keeps what
it cannot place and assigns UIDs, so this is a floor, not a twin.
"""
import json
import sys


def main():
    mode, source, target = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(source, encoding="utf-8") as reader, open(target, "w", encoding="utf-8") as writer:
        if mode == "json":
            json.dump(json.load(reader), writer, ensure_ascii=False, separators=(",", ":"))
        else:
            for line in reader:
                if line.strip():
                    writer.write(json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")))
                    writer.write("\n")


if __name__ == "__main__":
    main()
