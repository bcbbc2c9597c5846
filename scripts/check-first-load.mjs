#!/usr/bin/env node
/**
 * The first-load budget (P33, ADR 0196): fails when the JavaScript the first visit to `/` loads
 * from a production build (`dist/`, or the folder given) is over 200 kB gzip. `npm test` runs it
 * on the `dist/` the production smoke suite's server has just built.
 * Usage: `npm run build && node scripts/check-first-load.mjs [dist]`.
 */
import { checkFirstLoad } from './first-load.mjs';

const out = process.argv[2] ?? 'dist';
try {
  const result = checkFirstLoad(out);
  (result.ok ? console.log : console.error)(result.message);
  process.exit(result.ok ? 0 : 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
