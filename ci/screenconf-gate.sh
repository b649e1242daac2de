#!/usr/bin/env bash
# screenconf as a CI gate: the GitHub Action (action.yml) and the GitLab CI template
# (ci/screenconf.gitlab-ci.yml) both run this. It runs the installed screenconf with the SCREENCONF_*
# settings of the environment (and any arguments given here), copies the run folder to
# $SCREENCONF_CI_OUT (default screenconf-report), appends report.md to the job summary when
# $GITHUB_STEP_SUMMARY is set, and ends with the run's exit status: 0 conforming, 1 the gate failed,
# 2 usage or config error, 3 could not judge. With $SCREENCONF_CI_STATUS_FILE it writes "status=N"
# there and exits 0 instead, so that the caller can upload the folder before it gates.
set -uo pipefail
report_dir="${SCREENCONF_REPORT_DIR:-reports}"
out="${SCREENCONF_CI_OUT:-screenconf-report}"
status=0
npx --no screenconf run --report-dir "$report_dir" "$@" || status=$?
echo "screenconf run ended with exit status $status (0 conforming, 1 the gate failed, 2 usage or config, 3 could not judge)"
if [ -e "$report_dir/latest/conformance.json" ]; then
  rm -rf "$out"
  mkdir -p "$out"
  cp -RL "$report_dir/latest/." "$out/"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/report.md" ]; then cat "$out/report.md" >>"$GITHUB_STEP_SUMMARY"; fi
fi
if [ -n "${SCREENCONF_CI_STATUS_FILE:-}" ]; then
  echo "status=$status" >>"$SCREENCONF_CI_STATUS_FILE"
  exit 0
fi
exit "$status"
