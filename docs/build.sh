#!/bin/sh
# Build the manual: install the docs extra (Sphinx, MyST, Furo) into the checkout's virtual
# environment (see .ci/python.sh), then run Sphinx with warnings as errors.
#
#     sh docs/build.sh                # then open build/docs/index.html
#     sh docs/build.sh -b linkcheck   # any further option of sphinx-build
set -e
cd "$(dirname "$0")/.."
. ./.ci/python.sh
choose_python
install_package docs
exec "$PYTHON" -m sphinx -W docs build/docs "$@"
