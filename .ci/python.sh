# Which Python installs and runs the package; sourced by play.sh and .ci/run (POSIX sh).
#
# choose_python sets PYTHON: python3 itself where pip may install into it (a pyenv, conda or
# python.org Python, an active virtual environment), else the virtual environment .venv in the
# checkout, made on first use. Debian's and Ubuntu's own Python refuse `pip install` outside a
# virtual environment (PEP 668, "externally-managed-environment"), and may lack the venv
# module (the python3-venv package): as root it is installed with apt-get, else the message
# says how.

choose_python() {
    if [ -x .venv/bin/python ]; then
        use_venv
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
    if "$base" - <<'PY' 2>/dev/null
import os, sys, sysconfig
import pip  # noqa: F401  (pip itself may be missing: Debian's python3-pip)
managed = os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
sys.exit(1 if managed and sys.prefix == sys.base_prefix else 0)
PY
    then
        PYTHON=$base
        return
    fi
    echo "== making a virtual environment in $(pwd)/.venv ($("$base" -V 2>&1) refuses" \
         "to install packages outside one)" >&2
    if ! "$base" -m venv .venv >/dev/null 2>&1; then
        rm -rf .venv
        version=$("$base" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "== installing python3-venv with apt-get" >&2
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv \
                "python$version-venv" >/dev/null
            "$base" -m venv .venv
        else
            echo "shutthebox: error: $base cannot make a virtual environment: install" \
                 "python3-venv (sudo apt-get install python3-venv) and run this again" >&2
            exit 1
        fi
    fi
    use_venv
}

use_venv() {
    PYTHON=$(pwd)/.venv/bin/python
    VIRTUAL_ENV=$(pwd)/.venv
    PATH=$VIRTUAL_ENV/bin:$PATH
    export VIRTUAL_ENV PATH
}
