#!/usr/bin/env node
// `verify refs --drift` through the library, for bench 06's comparison with the way it ran before:
//   node bench/drift-run.js DIR                 as `refcat verify refs --drift docs` runs it;
//   node bench/drift-run.js DIR --blame-each 1  one blame per doc, one git process at a time.
// Exits 1 when the check fails to run; prints the verdict counts and the git processes.
import path from 'node:path';
import { ROOT } from './lib.js';

const [dir, flag, concurrency] = process.argv.slice(2);
const { verifyRefs, GitRunner } = await import(path.join(ROOT, 'dist', 'index.js'));
const ctx = { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, home: dir };
const drift = flag === '--blame-each' ? { blameEveryFile: true, git: new GitRunner(ctx, { concurrency: Number(concurrency ?? 1) }) } : {};
const report = await verifyRefs(['docs'], ctx, { drift });
console.log(JSON.stringify({ counts: report.drift.counts, gitProcesses: report.drift.gitProcesses }));
