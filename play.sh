#!/bin/sh
# The quick start: install Shut the Box from this checkout, put the command `shutthebox` on
# the PATH, then play it in the terminal.
#
#     sh play.sh                      # the setup questions, then the game
#     sh play.sh --players Ann,cpu    # any option of `shutthebox play`
#
# It installs into a virtual environment, .venv here (or the active one), never into the
# system's Python (see .ci/python.sh), and links .venv/bin/shutthebox into /usr/local/bin
# (as root) or ~/.local/bin, saying so, so that the README's next commands work as written.
set -e
cd "$(dirname "$0")"
user_path=$PATH
. ./.ci/python.sh
choose_python
install_package ""

# Put the command where the shell looks, unless the user's PATH finds this one already.
command_here=$VIRTUAL_ENV/bin/shutthebox
found=$(PATH=$user_path; command -v shutthebox || true)
if [ -z "$found" ] || [ "$(readlink -f "$found")" != "$(readlink -f "$command_here")" ]; then
    if [ "$(id -u)" = 0 ]; then
        folder=/usr/local/bin
    else
        folder=$HOME/.local/bin
    fi
    link=$folder/shutthebox
    if [ -e "$link" ] && [ ! -L "$link" ]; then
        echo "== $link is a file of another install: left alone; this checkout's command" \
             "is $command_here" >&2
    else
        mkdir -p "$folder"
        ln -sf "$command_here" "$link"
        echo "== the command shutthebox ($link) now runs this checkout's $command_here" >&2
    fi
    case ":$user_path:" in
        *":$folder:"*) ;;
        *) echo "== $folder is not on your PATH: add it (for example, add the line" \
                "export PATH=\"$folder:\$PATH\" to ~/.profile, then open a new terminal)," \
                "or run $command_here" >&2 ;;
    esac
    found=$(PATH=$user_path; command -v shutthebox || true)
    if [ -n "$found" ] && [ "$(readlink -f "$found")" != "$(readlink -f "$command_here")" ]
    then
        echo "== note: another shutthebox comes first on your PATH ($found): run" \
             "$command_here for this checkout's" >&2
    fi
fi
exec "$PYTHON" -m shutthebox play "$@"
