#!/usr/bin/env node
// `npm run bench`: runs every suite in bench/suites/ (sorted by name), each in its own process so
// that one suite's memory does not leak into another's figures. Suites print their own results.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const suites = fs
  .readdirSync(path.join(here, 'suites'))
  .filter((f) => f.endsWith('.js'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = false;
for (const suite of suites) {
  console.log(`\n## ${suite.replace(/\.js$/, '')}`);
  const r = spawnSync(process.execPath, [path.join(here, 'suites', suite)], { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;
