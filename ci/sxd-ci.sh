#!/bin/sh
# One CI step of sxd, the same on every CI: runs `sxd test`, `sxd test-client` or `sxd interop`
# with the reports in one folder, puts the run's summary.md where the CI shows it, and exits
# with sxd's own exit code (0 passed, 1 failed, 2 usage or target unreachable, 3 incomplete).
# The GitHub action (action.yml) and the GitLab template (ci/gitlab/sxd.gitlab-ci.yml) call it;
# so can any other CI, or a person, locally:
#
#   SXD_CI_COMMAND=test SXD_CI_ARGS='--tags @DIG-2' ci/sxd-ci.sh
#
# Read from the environment:
#   SXD_CI_COMMAND     test | test-client | interop (default: test)
#   SXD_CI_ARGS        the command's arguments, quoted as in a shell: --run "sh adapter.sh"
#   SXD_CI_REPORT_DIR  where the reports go (default: sxd-reports); given as --report-dir
#   SXD_CI_SXD         how to start sxd (default: sxd), e.g. node /path/to/sxd/bin/sxd.js
#   GITHUB_STEP_SUMMARY  where set, summary.md is appended to it (the job summary)
#   GITHUB_OUTPUT        where set, exit-code=N and report-dir=DIR are written to it
# Every sxd option with an environment variable (SXD_BASE_URL, SXD_CONFIG, …) is read by sxd
# itself as usual.
set -u

command=${SXD_CI_COMMAND:-test}
report_dir=${SXD_CI_REPORT_DIR:-sxd-reports}
sxd=${SXD_CI_SXD:-sxd}

case "$command" in
  test | test-client | interop) ;;
  *)
    echo "sxd-ci: the command is test, test-client or interop, not \"$command\"" >&2
    exit 2
    ;;
esac

# The arguments as the user quoted them, like a `run:` line of their own workflow.
if ! eval "set -- ${SXD_CI_ARGS:-}"; then
  echo "sxd-ci: cannot read the arguments as a shell would: ${SXD_CI_ARGS:-}" >&2
  exit 2
fi

mkdir -p "$report_dir"
# A summary left by an earlier run must not stand in for this one's.
rm -f "$report_dir/summary.md"
echo "sxd-ci: $sxd $command --report-dir $report_dir ${SXD_CI_ARGS:-}"
eval "$sxd"' "$command" --report-dir "$report_dir" "$@"'
code=$?

# Every run of sxd writes summary.md beside its other reports (`sxd interop`: its matrix).
summary="$report_dir/summary.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  if [ -f "$summary" ]; then
    cat "$summary" >>"$GITHUB_STEP_SUMMARY"
  else
    printf '# sxd %s: exit %s\n\nsxd wrote no summary.md: see the log (a usage error, or the target was not reachable).\n' \
      "$command" "$code" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf 'exit-code=%s\nreport-dir=%s\n' "$code" "$report_dir" >>"$GITHUB_OUTPUT"
fi
echo "sxd-ci: sxd $command exited $code; reports in $report_dir/"
exit "$code"
