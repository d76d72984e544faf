#!/usr/bin/env bash
# Installs the Digest clients test/digest-real-clients.test.ts logs in with, where they are
# missing: curl, wget, python3 with requests (Debian's packages). Needs root (as on CI). Where
# it cannot install, it says so and the test skips that client with the reason.
set -uo pipefail
needed=()
command -v curl >/dev/null 2>&1 || needed+=(curl)
command -v wget >/dev/null 2>&1 || needed+=(wget)
command -v python3 >/dev/null 2>&1 || needed+=(python3)
python3 -c "import requests" >/dev/null 2>&1 || needed+=(python3-requests)
if [ "${#needed[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-digest-clients: not root; install ${needed[*]} to try those Digest clients" >&2
  exit 0
fi
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${needed[@]}" >/dev/null; }; then
  echo "setup-digest-clients: could not install ${needed[*]}; the real-clients test will skip them" >&2
fi
exit 0
