#!/usr/bin/env bash
# C modules are imported in one small folder each: CSQLite only under Store/SQLite, CICal only
# under Formats/ICS/LibICal (and, for the tests' libical oracle, Tests/RemconvCoreTests/LibICalOracle),
# CLibXML2 only under Formats/OPML/LibXML, CLibArchive only under Formats/TodoistBackup/LibArchive. Fails listing any other
# file that imports one, and any OpaquePointer outside those folders.
set -euo pipefail
cd "$(dirname "$0")/.."
allowed='^(Sources/RemconvCore/(Store/SQLite|Formats/ICS/LibICal|Formats/OPML/LibXML|Formats/TodoistBackup/LibArchive)|Tests/RemconvCoreTests/LibICalOracle)/'
status=0
offenders=$(grep -rlE '^\s*(@_implementationOnly |internal |public |@preconcurrency )*import (CSQLite|CICal|CLibXML2|CLibArchive)' Sources Tests \
  | grep -vE "$allowed" || true)
if [ -n "$offenders" ]; then
  echo "error: C modules imported outside their boundary folder:" >&2
  echo "$offenders" >&2
  status=1
fi
opaque=$(grep -rlE 'OpaquePointer' Sources | grep -vE "$allowed" || true)
if [ -n "$opaque" ]; then
  echo "error: OpaquePointer outside the C boundary folders:" >&2
  echo "$opaque" >&2
  status=1
fi
exit $status
