#!/bin/sh
# The adapter between sxd test-client and the example client: one task per run, read from
# SXD_TASK; exit 127 for a task this client does not do.
#   sxd test-client --run "sh examples/clients/node/adapter.sh" --config examples/clients/node/client.json
here=$(dirname "$0")
case "$SXD_TASK" in
  digest-get) exec node "$here/client.mjs" GET "$SXD_URL" "$SXD_USERNAME" "$SXD_PASSWORD" ;;
  digest-post) exec node "$here/client.mjs" POST "$SXD_URL" "$SXD_USERNAME" "$SXD_PASSWORD" "$SXD_BODY" ;;
  update) exec node "$here/entries.mjs" update "$SXD_URL" "$SXD_TITLE" ;;
  history) exec node "$here/entries.mjs" history "$SXD_URL" ;;
  export) exec node "$here/export.mjs" "$SXD_URL" "$SXD_MESSAGING_URL" ;;
  *) exit 127 ;;
esac
