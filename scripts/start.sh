#!/usr/bin/env bash
# The one "run the app" command (README): install, build, serve on http://127.0.0.1:$PORT.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip
port=${PORT:-4173}
bash scripts/ensure-deps.sh --no-browser
npm run --silent build
echo
echo "Loci is running at http://127.0.0.1:${port}/  (Ctrl+C to stop)"
exec npx vite preview --host 127.0.0.1 --port "$port" --strictPort
