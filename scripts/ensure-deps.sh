#!/usr/bin/env bash
# Installs what the app and its tests need on a fresh Debian machine with Node 20:
# npm packages (never letting onnxruntime-node download anything) and Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip

stamp=node_modules/.loci-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "── installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi

if [ "${1:-}" != "--no-browser" ] && [ ! -x /usr/bin/chromium ]; then
  echo "── installing Debian's chromium (for Playwright)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  fi
fi
