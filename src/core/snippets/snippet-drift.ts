import fs from 'node:fs';
import type { DriftEntry, DriftReport } from '../drift/drift-types.js';
import { roundTripProblem } from '../drift/fix-drift.js';
import type { Extraction } from '../extract/extract.js';
import { writeFileAtomic } from '../safe-write/atomic-file.js';
import { compareSnippet } from './compare-snippet.js';
import { fencedBlocks } from './fenced-blocks.js';
import { type Citation, findCitations } from './find-citations.js';
import { judgeSnippet, redactedSnippet, type SnippetEntry, type SnippetLeft, type SnippetRefresh, type SnippetReport } from './judge-snippets.js';
import { SnippetFiles } from './snippet-files.js';
import { applyLineEdits, refreshEdits } from './refresh-snippet.js';

/**
 * Cited snippets under `--drift` (docs/snippets.md#with---drift): whether each snippet matched the
 * code at its ref's base (from the base text drift already fetched: no git call of its own), and
 * `--fix-snippets`, which refreshes the stale snippets that were verbatim copies at base.
 */

const key = (file: string, line: number, ref: string) => `${file}\0${line}\0${ref}`;

/** The drift entry of each snippet, by (file, line, ref as written). */
function driftOf(drift: DriftReport): Map<string, DriftEntry> {
  return new Map(drift.entries.map((e) => [key(e.file, e.line, e.ref), e]));
}

/**
 * Set `matchedAtBase`, `verbatimAtBase` and `base` on every snippet: null when its ref has no base
 * text (not a line ref, unknown, a line not committed yet).
 */
export function judgeAtBase(snippets: SnippetReport, drift: DriftReport): void {
  const entries = driftOf(drift);
  for (const s of snippets.entries) {
    const e = entries.get(key(s.file, s.line, s.ref));
    const baseLines = e?.baseLines;
    if (!e || !baseLines || !e.base) {
      s.matchedAtBase = null;
      s.verbatimAtBase = null;
      s.base = e?.base ?? null;
      continue;
    }
    // Both sides redacted, as now (judge-snippets.ts): a doc holding a redacted copy matched at base.
    const name = s.ref.split('#')[0]!;
    const then = compareSnippet(redactedSnippet(s.citation.snippet, name), redactedSnippet(baseLines, name)).status;
    s.matchedAtBase = then !== 'stale';
    s.verbatimAtBase = then === 'verbatim';
    s.base = e.base;
  }
}

/** A bare citation (embedme's `// src/a.ts#L3`) keeps its form when drift proposes a new ref. */
export function keepBareRefs(drift: DriftReport, bare: ReadonlySet<string>): void {
  for (const e of drift.entries) {
    if (e.newRef?.startsWith('@') && bare.has(key(e.file, e.line, e.ref))) e.newRef = e.newRef.slice(1);
  }
}

/** A snippet's new ref whose lines judgeFixedAgain or refreshSnippets needs. */
export interface SnippetSelection {
  entry: SnippetEntry;
  ref: string;
}

/**
 * The lines each new ref of a SnippetSelection selects now (null: it does not resolve), by
 * selectionKey: extracted by the caller, as the doc's other refs are, before the step that reads them.
 */
export type SelectedLines = ReadonlyMap<string, readonly Extraction[] | null>;

export const selectionKey = (entry: SnippetEntry, ref: string): string => `${key(entry.file, entry.line, entry.ref)}\0${ref}`;

/** The new refs judgeFixedAgain judges snippets against: those of the refs --fix rewrote. */
export function fixedSelections(snippets: SnippetReport, drift: DriftReport): SnippetSelection[] {
  const entries = driftOf(drift);
  return snippets.entries.flatMap((s) => {
    const e = entries.get(key(s.file, s.line, s.ref));
    return e && e.status === 'fixed' && e.newRef ? [{ entry: s, ref: e.newRef }] : [];
  });
}

/** The new refs whose lines refreshSnippets writes: those of the stale snippets it may refresh. */
export function refreshSelections(snippets: SnippetReport, drift: DriftReport): SnippetSelection[] {
  const entries = driftOf(drift);
  return snippets.entries.flatMap((s) => {
    const wanted = refreshRefOf(s, entries.get(key(s.file, s.line, s.ref)));
    return wanted && 'ref' in wanted ? [{ entry: s, ref: wanted.ref }] : [];
  });
}

/**
 * After --fix moved refs: a snippet whose ref was rewritten is judged again against the lines its
 * new ref selects (`selected`, for fixedSelections).
 */
export function judgeFixedAgain(snippets: SnippetReport, drift: DriftReport, selected: SelectedLines): void {
  const entries = driftOf(drift);
  const files = new SnippetFiles();
  for (const [i, s] of snippets.entries.entries()) {
    const e = entries.get(key(s.file, s.line, s.ref));
    if (!e || e.status !== 'fixed' || !e.newRef) continue;
    const lines = selected.get(selectionKey(s, e.newRef));
    if (!lines) continue;
    const again = judgeSnippet(s.file, { ...s.citation, text: e.newRef }, lines, s.searchDirs, files);
    snippets[s.status]--;
    snippets[again.status]++;
    snippets.entries[i] = { ...again, matchedAtBase: s.matchedAtBase, verbatimAtBase: s.verbatimAtBase, base: s.base };
  }
}

export interface RefreshResult {
  refreshed: SnippetRefresh[];
  left: SnippetLeft[];
}

/**
 * `--fix-snippets`: a stale snippet that was verbatim at its base, whose ref drift found `changed`,
 * gets the ref's new range (git's mapping of the old lines) and that range's current lines. A
 * deleted target, an excerpt or a snippet that never matched is left, and says why. The document
 * is read again and its citation found again before it is written: a doc edited since the scan is
 * left as it is. One atomic replace per document; with dryRun nothing is written.
 */
export function refreshSnippets(
  snippets: SnippetReport,
  drift: DriftReport,
  selected: SelectedLines,
  options: { dryRun: boolean; isKnownAlias: (name: string) => boolean },
): RefreshResult {
  const entries = driftOf(drift);
  const result: RefreshResult = { refreshed: [], left: [] };
  const byFile = refreshable(snippets, entries, selected, result.left);
  for (const [file, list] of byFile) {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch (err) {
      for (const { s } of list) result.left.push({ file, line: s.line, ref: s.ref, reason: `cannot read it again: ${(err as Error).message}` });
      continue;
    }
    const text = buf.toString('utf8');
    const docLines = text.split('\n');
    const lines = docLines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    const now = findCitations((i) => lines[i] ?? '', fencedBlocks(text), {
      isKnownAlias: options.isKnownAlias,
      bareFileExists: () => true,
    });
    const edits = [];
    const done: Refreshable[] = [];
    for (const item of list) {
      const c = sameCitation(now, item.s.citation);
      if (!c) {
        result.left.push({ file, line: item.s.line, ref: item.s.ref, reason: 'the doc changed since it was scanned' });
        continue;
      }
      const problem = newRefProblem(docLines, c, item.d, options.isKnownAlias);
      if (problem !== null) {
        result.left.push({ file, line: item.s.line, ref: item.s.ref, reason: problem });
        continue;
      }
      const refresh = refreshEdits(docLines, c, refreshedRef(item.d)!, item.code);
      if (refresh.refused !== null) {
        result.left.push({ file, line: item.s.line, ref: item.s.ref, reason: refresh.refused });
        continue;
      }
      edits.push(...refresh.edits);
      done.push(item);
    }
    if (done.length === 0) continue;
    if (!options.dryRun) {
      const mode = fs.statSync(file).mode & 0o7777;
      writeFileAtomic(file, applyLineEdits(docLines, edits).join('\n'), { mode, durable: true });
    }
    for (const item of done) result.refreshed.push(refreshed(file, item, snippets, options.dryRun));
  }
  drift.counts.changed = drift.entries.filter((e) => e.status === 'changed').length;
  drift.counts.fixed = drift.entries.filter((e) => e.status === 'fixed').length;
  return result;
}

/** A stale snippet --fix-snippets may refresh, with its drift entry and the lines its new ref selects. */
interface Refreshable {
  s: SnippetEntry;
  d: DriftEntry;
  code: string[];
}

/**
 * The stale snippets that were verbatim at base and whose ref drift found `changed`, by document,
 * with their new lines; every other stale snippet goes to `left`, saying why.
 */
function refreshable(
  snippets: SnippetReport,
  entries: ReadonlyMap<string, DriftEntry>,
  selected: SelectedLines,
  left: SnippetLeft[],
): Map<string, Refreshable[]> {
  const byFile = new Map<string, Refreshable[]>();
  for (const s of snippets.entries) {
    const d = entries.get(key(s.file, s.line, s.ref));
    const wanted = refreshRefOf(s, d);
    if (!wanted) continue;
    const leave = (reason: string) => left.push({ file: s.file, line: s.line, ref: s.ref, reason });
    if ('reason' in wanted) {
      leave(wanted.reason);
      continue;
    }
    const lines = selected.get(selectionKey(s, wanted.ref));
    if (!lines) leave(`${wanted.ref} does not resolve`);
    else {
      const list = byFile.get(s.file) ?? [];
      list.push({ s, d: d!, code: lines.flatMap((x) => x.lines) });
      byFile.set(s.file, list);
    }
  }
  return byFile;
}

/** For a stale snippet: the new ref --fix-snippets would refresh it from, or why it is left. Null for any other snippet. */
function refreshRefOf(s: SnippetEntry, d: DriftEntry | undefined): { ref: string } | { reason: string } | null {
  if (s.status !== 'stale') return null;
  const base = s.base ? s.base.slice(0, 7) : null;
  if (!d || !base || s.verbatimAtBase === null || s.verbatimAtBase === undefined) return { reason: 'no base to compare with' };
  if (!s.verbatimAtBase) return { reason: `not a verbatim copy at ${base}` };
  if (d.status === 'deleted') return { reason: `its file was deleted since ${base}` };
  if (d.status !== 'changed' || !refreshedRef(d)) return { reason: `its ref is ${d.status}, not changed` };
  return { ref: refreshedRef(d)! };
}

/** What --fix-snippets says of a refreshed snippet; unless dryRun, its verdict and its ref's become fresh. */
function refreshed(file: string, { s, d, code }: Refreshable, snippets: SnippetReport, dryRun: boolean): SnippetRefresh {
  const done: SnippetRefresh = { file, line: s.line, oldRef: s.ref, newRef: refreshedRef(d)!, oldLines: s.citation.snippet.length, newLines: code.length };
  if (dryRun) return done;
  snippets.stale--;
  snippets.verbatim++;
  s.status = 'verbatim';
  s.missing = 0;
  s.missingLines = [];
  s.nowAt = null;
  d.status = 'fixed';
  return done;
}

/** The ref a refreshed snippet cites: a line ref's new range; a symbol ref stays as it is (docs/drift.md#symbol-refs). */
function refreshedRef(d: DriftEntry): string | null {
  return d.newRef ?? (d.byName ? d.ref : null);
}

/**
 * Why the citation's new ref would not read back as the file and lines it means, or null
 * (docs/reference.md#drift-verdicts: a fixed ref must round-trip).
 */
function newRefProblem(docLines: readonly string[], c: Citation, d: DriftEntry, isKnownAlias: (name: string) => boolean): string | null {
  const ref = refreshedRef(d)!;
  const written = c.bare && ref.startsWith('@') ? ref.slice(1) : ref;
  if (written === c.text || !d.target) return null;
  const raw = docLines[c.line - 1]!.replace(/\r$/, '');
  const at = raw.indexOf(c.text);
  if (at === -1) return null;
  const problem = roundTripProblem(raw.slice(0, at) + written + raw.slice(at + c.text.length), at, written, c.text, d.target, { conv: false, isKnownAlias });
  return problem === null ? null : `its ref would become ${written}, which ${problem}`;
}

/** The citation of `now` at the same place, with the same ref and the same snippet, or null. */
function sameCitation(now: readonly Citation[], then: Citation): Citation | null {
  const c = now.find((x) => x.line === then.line && x.fenceLine === then.fenceLine && x.text === then.text);
  if (!c || c.snippet.length !== then.snippet.length || c.snippet.some((l, i) => l !== then.snippet[i])) return null;
  return c;
}
