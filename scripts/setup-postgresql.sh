#!/usr/bin/env bash
# Installs PostgreSQL (Debian's postgresql package) where it is missing: the tests of the store of
# results (test/store-postgres.test.ts) start a throwaway server of their own with its initdb
# and pg_ctl, in a temporary folder on a free port, and stop it as they end. No cluster of the
# package's own is made or started. Needs root (as on CI); where it cannot install, it says so
# and those tests are skipped with that reason; nothing else in npm test needs PostgreSQL.
set -uo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "setup-postgresql: not root; install Debian's postgresql package to run the PostgreSQL store tests" >&2
  exit 0
fi
# The package would make and start a cluster "main" nobody here uses.
mkdir -p /etc/postgresql-common/createcluster.d
echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.d/sxd-no-main-cluster.conf
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }; then
  echo "setup-postgresql: could not install postgresql; the PostgreSQL store tests will be skipped" >&2
fi
exit 0
