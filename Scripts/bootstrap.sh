#!/usr/bin/env bash
# Installs what remconv needs to build and test on Debian: the C libraries it links and the
# peer programs its tests compare against. Does nothing when everything is there already.
# Uses sudo when not root.
set -euo pipefail

packages=(libsqlite3-dev libical-dev libxml2-dev libarchive-dev pkg-config sqlite3)
if [ "${1:-}" = "--test" ]; then
  # Peers the test suite runs against: Taskwarrior, todoman, Python's icalendar.
  packages+=(taskwarrior todoman python3-icalendar)
  # The todo.txt tools that judge the todotxt format (PlainTextPeerTests): todo.sh and topydo.
  packages+=(todotxt-cli topydo python3-venv)
  # The shells and roff tools the completion and man page tests run when present.
  packages+=(zsh fish groff-base mandoc)
  # GNU time and prlimit measure and limit the child processes of the bounds tests
  # (MeasuredProcess), which fail without them rather than skip.
  packages+=(time util-linux)
  # The CalDAV servers the sync tests start on 127.0.0.1 (Tests/Servers/davserver.py), and
  # openssl for the self-signed certificate its proxy's https is refused for.
  packages+=(radicale xandikos openssl)
fi
if [ "${1:-}" = "--bench" ]; then
  # make bench: GNU time for peak memory, valgrind for instruction counts, the peers it
  # compares with, and gnuplot for its charts when bench/.venv has no matplotlib.
  packages+=(time valgrind taskwarrior todoman python3-icalendar gnuplot-nox)
  # The sync benchmark: vdirsyncer against Radicale (bench/sync.sh).
  packages+=(radicale vdirsyncer)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "remconv: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2 || true
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ "${1:-}" = "--test" ]; then
  # The Markdown parser that judges the markdown format (MarkdownParserPeerTests), from PyPI
  # into a virtual environment under .build. Without network the install fails with a warning
  # and that test fails saying so: it never skips.
  venv=.build/test-venv
  if ! "$venv/bin/python3" -c 'import markdown_it, mdit_py_plugins.tasklists' 2>/dev/null; then
    echo "remconv: installing markdown-it-py and mdit-py-plugins into $venv" >&2
    if ! { /usr/bin/python3 -m venv "$venv" && "$venv/bin/pip" install --quiet markdown-it-py mdit-py-plugins >&2; }; then
      rm -rf "$venv"
      echo "remconv: warning: markdown-it-py could not be installed from PyPI; MarkdownParserPeerTests will fail" >&2
    fi
  fi
fi
