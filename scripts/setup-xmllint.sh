#!/usr/bin/env bash
# Installs xmllint (Debian's libxml2-utils), with which the tests validate junit.xml against
# the junit schema, where it is missing. Needs root (as on CI). Where it cannot install, it says
# so and those checks are skipped with that reason; nothing else in npm test needs xmllint.
set -uo pipefail
if command -v xmllint >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-xmllint: not root; install Debian's libxml2-utils package to validate junit.xml in the tests" >&2
  exit 0
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libxml2-utils >/dev/null; }; then
  echo "setup-xmllint: could not install libxml2-utils; the junit schema checks will be skipped" >&2
fi
exit 0
