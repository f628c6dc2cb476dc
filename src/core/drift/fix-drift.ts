import fs from 'node:fs';
import type { Context } from '../../shared/context.js';
import { RefcatError } from '../../shared/errors.js';
import { writeFileAtomic } from '../safe-write/atomic-file.js';
import { type DriftEntry, type DriftReport, groupInto } from './detect-drift.js';

export interface DriftFix {
  /** Absolute path of the scanned file. */
  file: string;
  line: number;
  oldRef: string;
  newRef: string;
}

/** Characters a ref may hold (docs/reference.md#verify-refs): a match must not run on into one. */
const REF_CHAR = /[^\s`'"<>()[\]{}|,;]/;

/**
 * `--fix` (docs/reference.md#drift-verdicts): rewrite every `moved` ref in place. Only the ref's
 * own characters change; every other byte (line endings, BOM, trailing spaces) stays. One atomic
 * replace per file, its mode kept. With `dryRun` nothing is written. Rewritten entries become
 * `fixed` in `report`.
 */
export function fixDrift(report: DriftReport, _ctx: Context, options: { dryRun?: boolean } = {}): DriftFix[] {
  const byFile = new Map<string, DriftEntry[]>();
  for (const e of report.entries) {
    if (e.status === 'moved' && e.newRef && e.newRef !== e.ref) groupInto(byFile, e.file, e);
  }
  const fixes: DriftFix[] = [];
  for (const [file, entries] of byFile) {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch (err) {
      throw new RefcatError(`Cannot fix ${file}: ${(err as Error).message}`, { code: 'unwritable' });
    }
    const starts = lineStarts(buf);
    const edits: { from: number; to: number; text: Buffer; entry: DriftEntry }[] = [];
    const taken = new Set<number>();
    for (const e of entries) {
      const from = starts[e.line - 1];
      if (from === undefined) continue;
      const to = e.line < starts.length ? starts[e.line]! : buf.length;
      const lineText = buf.subarray(from, to).toString('latin1');
      const needle = Buffer.from(e.ref, 'utf8').toString('latin1');
      for (let at = lineText.indexOf(needle); at !== -1; at = lineText.indexOf(needle, at + 1)) {
        const before = lineText[at - 1];
        const after = lineText[at + needle.length];
        if (before !== undefined && REF_CHAR.test(before) && !/[*_~=]/.test(before)) continue;
        if (after !== undefined && !endsRef(lineText.slice(at + needle.length))) continue;
        if (taken.has(from + at)) continue;
        taken.add(from + at);
        edits.push({ from: from + at, to: from + at + needle.length, text: Buffer.from(e.newRef!, 'utf8'), entry: e });
      }
    }
    if (edits.length === 0) continue;
    edits.sort((a, b) => a.from - b.from);
    const parts: Buffer[] = [];
    let at = 0;
    for (const x of edits) {
      parts.push(buf.subarray(at, x.from), x.text);
      at = x.to;
    }
    parts.push(buf.subarray(at));
    if (!options.dryRun) {
      const mode = fs.statSync(file).mode & 0o7777;
      writeFileAtomic(file, Buffer.concat(parts), { mode, durable: true });
    }
    const done = new Set<DriftEntry>();
    for (const x of edits) {
      if (done.has(x.entry)) continue;
      done.add(x.entry);
      fixes.push({ file, line: x.entry.line, oldRef: x.entry.ref, newRef: x.entry.newRef! });
      if (!options.dryRun) x.entry.status = 'fixed';
    }
  }
  report.counts.moved = report.entries.filter((e) => e.status === 'moved').length;
  report.counts.fixed = report.entries.filter((e) => e.status === 'fixed').length;
  return fixes;
}

/** Offsets of the first byte of every line. */
function lineStarts(buf: Buffer): number[] {
  const starts = buf.length === 0 ? [] : [0];
  for (let i = buf.indexOf(10); i !== -1 && i + 1 < buf.length; i = buf.indexOf(10, i + 1)) starts.push(i + 1);
  return starts;
}

/** What may follow a ref's last character: nothing of a ref, or trailing punctuation then that. */
function endsRef(rest: string): boolean {
  const next = rest[/^[.,:;!?*_]*/.exec(rest)![0].length];
  return next === undefined || !REF_CHAR.test(next);
}
