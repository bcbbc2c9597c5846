#!/usr/bin/env bash
# The one test command (README): installs what it needs, then type-check, lint, unit tests and
# Playwright end-to-end tests in Debian's Chromium (the e2e build), then the production smoke
# suite (playwright.prod.config.ts: `npm start` builds and serves dist/) and the first-load budget
# on that build. Prints "N passed, M failed" last.
set -uo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip

bash scripts/ensure-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

mkdir -p test-artifacts
rm -f test-artifacts/unit-results.json test-artifacts/e2e-results.json test-artifacts/prod-results.json
checks_passed=0
checks_failed=0
step() {
  local name=$1
  shift
  echo "── $name"
  if "$@"; then checks_passed=$((checks_passed + 1)); else
    echo "✗ $name failed"
    checks_failed=$((checks_failed + 1))
  fi
}

step typecheck npm run --silent typecheck
step lint npm run --silent lint
step "unit tests" npx vitest run --reporter=default --reporter=json \
  --outputFile.json=test-artifacts/unit-results.json
step "e2e build" npm run --silent build:e2e
if [ -d dist-e2e ]; then
  step "e2e tests" npx playwright test
fi
# Its web server is `npm start` (scripts/start.sh), which builds the production bundle first.
step "production smoke tests" npx playwright test -c playwright.prod.config.ts
# The dist/ that server just built: its first-load JavaScript stays within budget (P33, ADR 0196).
step "first-load budget" node scripts/check-first-load.mjs dist

node scripts/test-summary.mjs "$checks_passed" "$checks_failed"
