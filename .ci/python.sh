# Which Python installs and runs the package; sourced by play.sh, docs/build.sh and .ci/run
# (POSIX sh), from the checkout's top folder.
#
# choose_python sets PYTHON to a virtual environment's Python, never a shared interpreter's:
# the active virtual environment if there is one, else .venv in the checkout, made on first
# use with the python3 found (3.11 or later). .venv sees the packages that python3 already
# has (--system-site-packages), so what is installed there is not downloaded again, and
# whatever is missing or too old is installed into .venv alone. Debian's and Ubuntu's own
# Python may lack the venv module (the python3-venv package): as root it is installed with
# apt-get, else the message says how.
#
# install_package EXTRAS installs the checkout (editable) with those extras ("" for none)
# into it, once: again only when pyproject.toml or the extras asked for have changed.

choose_python() {
    if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
        echo "== using the active virtual environment $VIRTUAL_ENV" >&2
        use_venv "$VIRTUAL_ENV"
        return
    fi
    if [ -x .venv/bin/python ]; then
        use_venv "$(pwd)/.venv"
        return
    fi
    base=python3
    if ! command -v "$base" >/dev/null 2>&1; then
        echo "shutthebox: error: python3 is missing: install Python 3.11 or later" >&2
        exit 1
    fi
    if ! "$base" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        echo "shutthebox: error: Python 3.11 or later is needed, and python3 is" \
             "$("$base" -V 2>&1)" >&2
        exit 1
    fi
    echo "== making a virtual environment for shutthebox: $(pwd)/.venv" \
         "($("$base" -V 2>&1), $(command -v "$base"))" >&2
    if ! "$base" -m venv --system-site-packages .venv >/dev/null 2>&1; then
        rm -rf .venv
        version=$("$base" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "== installing python3-venv with apt-get" >&2
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv \
                "python$version-venv" >/dev/null
            "$base" -m venv --system-site-packages .venv
        else
            echo "shutthebox: error: $base cannot make a virtual environment: install" \
                 "python3-venv (sudo apt-get install python3-venv) and run this again" >&2
            exit 1
        fi
    fi
    use_venv "$(pwd)/.venv"
}

use_venv() {
    VIRTUAL_ENV=$1
    PYTHON=$VIRTUAL_ENV/bin/python
    PATH=$VIRTUAL_ENV/bin:$PATH
    export VIRTUAL_ENV PATH
}

install_package() {
    extras=$1
    target=.
    [ -n "$extras" ] && target=".[$extras]"
    stamp="$VIRTUAL_ENV/shutthebox-installed"
    wanted="$(pwd) [$extras] $(cksum < pyproject.toml)"
    if [ -f "$stamp" ] && grep -qxF "$wanted" "$stamp" \
            && "$PYTHON" -c 'import shutthebox' >/dev/null 2>&1; then
        return
    fi
    echo "== installing shutthebox${extras:+ with $extras} into $VIRTUAL_ENV" \
         "(once; a few minutes the first time)" >&2
    log=$(mktemp)
    if ! "$PYTHON" -m pip install --disable-pip-version-check -e "$target" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        rm -f "$log"
        echo "shutthebox: error: pip could not install $target into $VIRTUAL_ENV" \
             "(its last lines above)" >&2
        exit 1
    fi
    rm -f "$log"
    echo "$wanted" >> "$stamp"
}
