#!/usr/bin/env bash
# Installs Debian's Chromium for the report's browser test, where it is missing.
# Needs root (as on CI); a developer without it sees that test skipped with this hint.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-chromium: not root; install Debian's chromium package to run the report's browser test" >&2
  exit 0
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
