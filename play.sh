#!/bin/sh
# The quick start: install Shut the Box from this checkout, then play it in the terminal.
#
#     sh play.sh                      # the setup questions, then the game
#     sh play.sh --players Ann,cpu    # any option of `shutthebox play`
#
# It installs with the Python it finds (see .ci/python.sh): python3 itself, or a virtual
# environment .venv here where python3 is the system's own (Debian, Ubuntu). Once installed
# it starts the game at once.
set -e
cd "$(dirname "$0")"
. ./.ci/python.sh
choose_python
if ! "$PYTHON" -c 'import shutthebox.cli.play, textual' >/dev/null 2>&1; then
    echo "== installing shutthebox and what it needs (once; a few minutes)" >&2
    "$PYTHON" -m pip install -q --disable-pip-version-check -e .
fi
exec "$PYTHON" -m shutthebox play "$@"
