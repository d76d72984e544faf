#!/usr/bin/env bash
# Installs Debian's Chromium for the report's browser test, where it is missing. Needs root
# (as on CI). Where it cannot install, it says so and the browser test is skipped with that
# reason; nothing else in npm test needs Chromium.
set -uo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-chromium: not root; install Debian's chromium package to run the report's browser test" >&2
  exit 0
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; }; then
  echo "setup-chromium: could not install chromium; the report's browser test will be skipped" >&2
fi
exit 0
