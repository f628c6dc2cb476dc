import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { stopOnInterrupt } from '../../shared/interrupt.js';
import { findUp, shownPath } from '../../shared/paths.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { reclaimTemps, writeFileAtomic } from '../safe-write/atomic-file.js';
// A new ref must read back exactly as `verify refs` reads refs in a doc (roundTripProblem): the
// one doc-ref scanner checks it, never a copy of it.
import { refsInLine } from '../doc-refs/find-doc-refs.js';
import { hasGlobChars } from '../walk/glob.js';
import { type DriftEntry, type DriftNotFixed, type DriftReport, groupInto, type RefTarget, resolveSpan } from './drift-types.js';
import { lineStarts } from '../../shared/line-starts.js';

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
 * What a scanned file was like when it was scanned (inode, size, modification time), to tell
 * whether it changed before --fix writes it. Null when it cannot be read.
 */
export function fileStamp(file: string): string | null {
  try {
    const st = fs.statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null;
  }
}

/** The stamp a scan took last, until the synchronous step that took it ends. */
let scanning: { file: string; stamp: string | null } | null = null;

/**
 * fileStamp() for a scan: a doc's refs are found and checked in one synchronous step, and share
 * one `stat` (thousands of refs, a few hundred docs). Nothing else runs in between, so it is the
 * file as that step saw it; the next step stats again.
 */
export function scanStamp(file: string): string | null {
  if (scanning?.file === file) return scanning.stamp;
  if (scanning === null) queueMicrotask(() => (scanning = null));
  scanning = { file, stamp: fileStamp(file) };
  return scanning.stamp;
}

/**
 * `--fix` (docs/reference.md#drift-verdicts): rewrite every `moved` ref in place. Only the ref's
 * own characters change; every other byte (line endings, BOM, trailing spaces) stays. One atomic
 * replace per file, its mode kept, its temp file named with `ctx.proc`'s pid so that one left by a
 * crash is reclaimed later. A file that changed since it was scanned (its entries' `stamp`) is
 * skipped; a symbolic link is written through to its target when that is inside the working
 * directory or the link's repository, else refused (as is a file an INCLUDE reached from
 * elsewhere: writeTarget); a folder that cannot be written fails only its
 * own files. `signal` stops the writing between two files. With `dryRun` nothing is written.
 * Rewritten entries become `fixed` in `report`; what was left is in `report.notFixed`.
 */
export async function fixDrift(
  report: DriftReport,
  ctx: Context,
  options: { dryRun?: boolean; signal?: AbortSignal; isKnownAlias?: (name: string) => boolean } = {},
): Promise<DriftFix[]> {
  const fixes: DriftFix[] = [];
  const notFixed: DriftNotFixed[] = [];
  report.notFixed = notFixed;
  const byFile = rewritesByFile(report, notFixed);
  const reclaimed = new Set<string>();
  let first = true;
  let interrupted = false;
  const settled = options.dryRun ? () => {} : stopOnInterrupt(() => (interrupted = true));
  try {
    for (const [file, entries] of byFile) {
      // Between two files: let a signal in, and stop there if one came.
      if (!first && !options.dryRun) await new Promise((resolve) => setImmediate(resolve));
      first = false;
      if (interrupted || options.signal?.aborted) {
        notFixed.push({ file, refs: entries.length, reason: 'not written: interrupted', kind: 'interrupted' });
        continue;
      }
      fixFile(file, entries, ctx, options, { fixes, notFixed, reclaimed });
    }
  } finally {
    settled();
  }
  report.counts.moved = report.entries.filter((e) => e.status === 'moved').length;
  report.counts.deleted = report.entries.filter((e) => e.status === 'deleted').length;
  report.counts.fixed = report.entries.filter((e) => e.status === 'fixed').length;
  return fixes;
}

/**
 * The entries --fix rewrites, by scanned file. A ref's base is the commit that last changed its
 * doc line: rewriting a line would make that commit the base of a changed or deleted ref beside
 * it, and its verdict would be gone unreviewed, so such a line is left (`review_first`).
 */
function rewritesByFile(report: DriftReport, notFixed: DriftNotFixed[]): Map<string, DriftEntry[]> {
  const needsReview = new Set(report.entries.filter((e) => (e.status === 'changed' || e.status === 'deleted') && !rewritable(e)).map((e) => `${e.file}\0${e.line}`));
  const byFile = new Map<string, DriftEntry[]>();
  for (const e of report.entries) {
    if (!rewritable(e)) continue;
    if (needsReview.has(`${e.file}\0${e.line}`)) {
      notFixed.push({ file: e.file, refs: 1, reason: `${e.ref} would become ${e.newRef}, but its line also holds a changed or deleted ref: review that one first (--accept, or edit it), then --fix`, kind: 'review_first', line: e.line, ref: e.ref, newRef: e.newRef });
      continue;
    }
    groupInto(byFile, e.file, e);
  }
  return byFile;
}

/** What fixDrift gathers over the files: the fixes made, what was left, the folders whose temp files were reclaimed. */
interface FixRun {
  fixes: DriftFix[];
  notFixed: DriftNotFixed[];
  reclaimed: Set<string>;
}

/** Rewrite the refs of one scanned file in one atomic replace, or say in `run.notFixed` why not. */
function fixFile(file: string, entries: readonly DriftEntry[], ctx: Context, options: { dryRun?: boolean; isKnownAlias?: (name: string) => boolean }, run: FixRun): void {
  const { notFixed } = run;
  const stamp = entries[0]!.stamp;
  if (stamp !== undefined && fileStamp(file) !== stamp) {
    notFixed.push({ file, refs: entries.length, reason: 'changed since it was scanned: run again', kind: 'changed' });
    return;
  }
  const target = writeTarget(file, ctx, entries[0]!.includedBy);
  if (typeof target !== 'string') {
    notFixed.push({ file, refs: entries.length, reason: target.refused, kind: 'outside' });
    return;
  }
  let buf: Buffer;
  try {
    buf = fs.readFileSync(target);
  } catch (err) {
    notFixed.push({ file, refs: entries.length, reason: `cannot read it: ${why(err)}`, kind: 'unwritable' });
    return;
  }
  const edits = editsFor(buf, entries, { conv: file.toLowerCase().endsWith('.conv'), isKnownAlias: options.isKnownAlias ?? (() => false) }, (e, problem) =>
    notFixed.push({ file, refs: 1, reason: `${e.ref} would become ${e.newRef}, which ${problem}`, kind: 'no_round_trip', line: e.line, ref: e.ref, newRef: e.newRef! }),
  );
  if (edits.length === 0) return;
  if (!options.dryRun) {
    const dir = path.dirname(target);
    if (!run.reclaimed.has(dir)) {
      reclaimTemps(dir, ctx.proc);
      run.reclaimed.add(dir);
    }
    try {
      const mode = fs.statSync(target).mode & 0o7777;
      writeFileAtomic(target, applyEdits(buf, edits), { mode, durable: true, pid: ctx.proc?.pid });
    } catch (err) {
      notFixed.push({ file, refs: entries.length, reason: `cannot write in ${shownPath(ctx.cwd, dir)}/: ${why(err)}`, kind: 'unwritable' });
      return;
    }
  }
  const done = new Set<DriftEntry>();
  for (const x of edits) {
    if (done.has(x.entry)) continue;
    done.add(x.entry);
    run.fixes.push({ file, line: x.entry.line, oldRef: x.entry.ref, newRef: x.entry.newRef! });
    if (!options.dryRun) x.entry.status = 'fixed';
  }
}

/** What --fix writes: a moved ref, or an entry marked `rewrite` (a renamed declaration), with a new ref. */
function rewritable(e: DriftEntry): e is DriftEntry & { newRef: string } {
  return (e.status === 'moved' || e.rewrite === true) && e.newRef !== null && e.newRef !== e.ref;
}

interface Edit {
  from: number;
  to: number;
  text: Buffer;
  entry: DriftEntry;
}

/**
 * Where each entry's ref is on its line (only whole refs, each place once). A new ref that would
 * not read back as its target is no edit: `refuse` is told why.
 */
function editsFor(buf: Buffer, entries: readonly DriftEntry[], scan: RefScan, refuse: (e: DriftEntry, problem: string) => void): Edit[] {
  const starts = lineStarts(buf);
  const edits: Edit[] = [];
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
      const line = buf.subarray(from, to).toString('utf8').replace(/\r?\n$/, '');
      const col = Buffer.from(lineText.slice(0, at), 'latin1').toString('utf8').length;
      const problem = e.target ? roundTripProblem(line.slice(0, col) + e.newRef! + line.slice(col + e.ref.length), col, e.newRef!, e.ref, e.target, scan) : null;
      // One place per entry: a ref written twice on a line is found twice, as two entries.
      taken.add(from + at);
      if (problem !== null) {
        refuse(e, problem);
        break;
      }
      edits.push({ from: from + at, to: from + at + needle.length, text: Buffer.from(e.newRef!, 'utf8'), entry: e });
      break;
    }
  }
  return edits.sort((a, b) => a.from - b.from);
}

/** How refs are found in the file a new ref is written into. */
export interface RefScan {
  /** A workflow: refs are the words of REFCAT and CONTEXT lines. Else a doc (find-doc-refs.ts). */
  conv: boolean;
  isKnownAlias: (name: string) => boolean;
}

/**
 * Why `written`, standing at column `at` of `line` (the line as it would be written, in place of
 * `old`), would not read back as `target`: null when verify refs finds it there, whole, and it
 * parses to the same alias, path and lines (docs/reference.md#drift-verdicts). The ref grammar can
 * escape only `#`, `%` and whitespace in a path; a new path holding a character that ends a ref in
 * a doc (a quote, backtick, bracket, parenthesis, `|`, `,`, `;`) or a glob character cannot be
 * written.
 */
export function roundTripProblem(line: string, at: number, written: string, old: string, target: RefTarget, scan: RefScan): string | null {
  // A bare path (embedme's citation) has no `@`, and is read with one.
  const bare = target.alias === null && !written.startsWith('@');
  const found = (l: string, i: number, text: string): boolean => {
    if (scan.conv) return !/\s/.test(text) && (i === 0 || /\s/.test(l[i - 1]!)) && (i + text.length === l.length || /\s/.test(l[i + text.length]!));
    const ref = bare ? '@' + text : text;
    return refsInLine(bare ? ' ' + ref + ' ' : l, { markdown: true, isKnownAlias: scan.isKnownAlias }).some((r) => r.at === (bare ? 1 : i) && r.text === ref);
  };
  // A ref the line scan does not find where it stands was found by the citation scan (a comment
  // opening a code block): the new one is then read on its own.
  const oldLine = line.slice(0, at) + old + line.slice(at + written.length);
  const inPlace = found(oldLine, at, old);
  if (!(inPlace ? found(line, at, written) : found(' ' + written + ' ', 1, written))) {
    return scan.conv ? 'would not be read as one ref' : 'verify refs would not find as written (a ref cannot hold quotes, backticks, brackets, parentheses, `|`, `,` or `;`)';
  }
  let spec;
  try {
    spec = parseRef(bare ? '@' + written : written);
  } catch {
    return 'would not parse';
  }
  if (spec.alias !== target.alias || spec.path !== target.path) return `would read as another file (${spec.alias ? spec.alias + ':' : ''}${spec.path})`;
  if (target.renamed && hasGlobChars(spec.path)) return 'would read as a glob (`*`, `?`, `[` or `{` in its path)';
  const sel = spec.selector;
  if (target.symbol) {
    const want = target.symbol;
    const same = sel?.kind === 'symbol' && sel.path === want.path && sel.index === want.index && JSON.stringify(sel.window) === JSON.stringify(want.window);
    return same ? null : 'would name another declaration';
  }
  const span = sel?.kind === 'range' ? resolveSpan(sel, target.lines) : null;
  if (!span || span.start !== target.start || span.end !== target.end) return 'would select other lines';
  return null;
}

function applyEdits(buf: Buffer, edits: readonly Edit[]): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const x of edits) {
    parts.push(buf.subarray(at, x.from), x.text);
    at = x.to;
  }
  parts.push(buf.subarray(at));
  return Buffer.concat(parts);
}

/**
 * The file to write for a scanned file: itself, or when it is a symbolic link or reached through one
 * (a linked folder on its way) its real path when that
 * is inside the working directory or the repository holding the link (replacing the link by a
 * regular file would leave the real file with the old ref). A file reached through an INCLUDE
 * (`includedBy`, the scanned workflow) is the same indirection: written only inside the working
 * directory or that workflow's repository (docs/reference.md#drift-verdicts).
 */
function writeTarget(file: string, ctx: Context, includedBy?: string): string | { refused: string } {
  let real: string;
  try {
    // A link anywhere on the way counts, the doc's own or a folder's (`docs -> /elsewhere`).
    real = fs.realpathSync(file);
  } catch (err) {
    return { refused: `cannot resolve the ${includedBy === undefined ? 'link' : 'file'}: ${why(err)}` };
  }
  const link = real !== path.resolve(file);
  if (!link && includedBy === undefined) return file;
  const dotGit = findUp(path.dirname(includedBy ?? file), '.git');
  const roots = [ctx.cwd, ...(dotGit ? [path.dirname(dotGit)] : [])].map((r) => {
    try {
      return fs.realpathSync(r);
    } catch {
      return r;
    }
  });
  if (roots.some((r) => real === r || real.startsWith(r.endsWith(path.sep) ? r : r + path.sep))) return link ? real : file;
  if (includedBy !== undefined) return { refused: `included by ${shownPath(ctx.cwd, includedBy)}, outside the working directory and that workflow's repository: not written` };
  return { refused: `a link to ${real}, outside the working directory and the repository: not written` };
}

function why(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const names: Record<string, string> = { EACCES: 'permission denied', EPERM: 'operation not permitted', EROFS: 'read-only file system', ENOSPC: 'no space left on device', ENOENT: 'no such file or directory' };
  return (e.code && names[e.code]) ?? e.message ?? String(err);
}

/** What may follow a ref's last character: nothing of a ref, or trailing punctuation then that. */
function endsRef(rest: string): boolean {
  const next = rest[/^[.,:;!?*_]*/.exec(rest)![0].length];
  return next === undefined || !REF_CHAR.test(next);
}
