import fs from 'node:fs';
import path from 'node:path';
import { RefError } from '../../shared/errors.js';
import { escapePath, formatSelector, safePath } from '../ref-spec/format-ref-spec.js';
import type { RefSpec, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Declaration } from '../symbols/declaration.js';
import { declarationsOfText, loadFileDeclarations } from '../symbols/declaration-table.js';
import { MAX_SYMBOL_FILE_BYTES, symbolLanguageOf } from '../symbols/languages.js';
import { resolveSymbol, symbolSpan } from '../symbols/resolve-symbol.js';

/**
 * Drift of a symbol ref (docs/drift.md#symbol-refs): it is anchored by name, so it never moves by
 * lines. Its declaration at the base is found by parsing the file's text at the base (fetched with
 * every other old text, no git call of its own) with the same declaration table as now; then:
 * - `unchanged`: the lines it selects now equal those at the base, each trimmed (re-indenting, or
 *   code moving above it, changes nothing);
 * - `changed`: they differ (a warning unless --strict: the ref still names the right code);
 * - `deleted`: the name is gone, or its file is. When exactly one new declaration of the same kind
 *   under the same parent holds at least RENAME_SHARE of the old body's lines, it was renamed:
 *   `newRef` names it and --fix writes it (`rewrite`).
 * A file git saw renamed keeps the name: `moved` to the new path when the declaration is as it was.
 */

/** The share of the old body's lines a declaration must hold to be taken for its rename. */
export const RENAME_SHARE = 0.8;

/**
 * What a symbol ref's verdict sets on its drift entry (judge-line-refs.ts applies it; the same field
 * names as DriftEntry).
 */
export interface SymbolVerdict {
  status: 'unchanged' | 'moved' | 'changed' | 'deleted' | 'unknown';
  reason?: string;
  newRef?: string;
  editedLines?: number;
  oldLines?: number;
  baseLines?: string[];
  /** A renamed declaration: --fix writes `newRef`. */
  rewrite?: boolean;
  target?: { alias: string | null; path: string; renamed: boolean; start: number; end: number; lines: number; symbol: SymbolSelector };
  /** changed: the lines it selects now, which --accept records. */
  currentLines?: string[];
}

export interface SymbolJudgement {
  /** The base's sha in the target's repository. */
  base: string;
  spec: RefSpec & { selector: SymbolSelector };
  /** The ref as written. */
  ref: string;
  /** The target file at the base. */
  oldText: Buffer;
  /** The target file now (after a rename git found), null when git saw it deleted. */
  now: string | null;
  /** The file now when it is read at a commit (a pinned alias's pin), not from disk. */
  nowText?: Buffer | null;
  /** With `now` renamed: the folder the ref's path is relative to, for the new path. */
  baseDir: string;
  renamed: boolean;
}

export async function judgeSymbol(j: SymbolJudgement): Promise<SymbolVerdict> {
  const { spec } = j;
  const sel = spec.selector;
  const base = j.base.slice(0, 7);
  const language = symbolLanguageOf(spec.path);
  if (!language) return unknown(`${spec.path} has no parser for symbol refs`);
  if (j.oldText.length > MAX_SYMBOL_FILE_BYTES) return unknown(`${spec.path} was too large for symbol refs at ${base} (at most 1 MiB)`);
  const oldText = j.oldText.toString('utf8');
  const oldLines = linesOf(oldText);
  const oldTable = await declarationsOfText(oldText, symbolLanguageOf(spec.path, oldText) ?? language);
  let old: Declaration;
  try {
    old = resolveSymbol(oldTable, sel, j.ref);
  } catch (err) {
    if (!(err instanceof RefError)) throw err;
    return unknown(`at ${base}: ${err.message}`);
  }
  const oldSpan = symbolSpan(old, sel, oldLines.length);
  const block = oldLines.slice(oldSpan.start - 1, oldSpan.end);
  const then = { oldLines: block.length, baseLines: block };
  if (j.now === null) return { status: 'deleted', ...then };
  let table: Declaration[];
  let nowLines: string[];
  try {
    if (j.nowText === null) return { status: 'deleted', ...then };
    if (j.nowText !== undefined) {
      if (j.nowText.length > MAX_SYMBOL_FILE_BYTES) return unknown(`${spec.path} is too large for symbol refs (at most 1 MiB)`);
      const text = j.nowText.toString('utf8');
      table = await declarationsOfText(text, symbolLanguageOf(spec.path, text) ?? language);
      nowLines = linesOf(text);
    } else {
      table = await loadFileDeclarations(j.now, j.ref);
      nowLines = linesOf(fs.readFileSync(j.now, 'utf8'));
    }
  } catch (err) {
    if (err instanceof RefError) return unknown(err.message);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'deleted', ...then };
    throw err;
  }
  const head = j.renamed ? renamedHead(j) : j.ref.slice(0, j.ref.indexOf('#'));
  let now: Declaration;
  try {
    now = resolveSymbol(table, sel, j.ref);
  } catch (err) {
    if (!(err instanceof RefError)) throw err;
    // Ambiguous now: the ref is broken, and its error says so.
    if (err.code !== 'symbol_not_found') return unknown(err.message);
    const renamed = renameOf(old, oldTable, oldLines, table, nowLines);
    if (!renamed) return { status: 'deleted', ...then };
    const same = table.filter((d) => d.path === renamed.path && d.kind !== 'extension');
    const index = same.length > 1 ? same.indexOf(renamed) + 1 : null;
    const newSel: SymbolSelector = { kind: 'symbol', path: renamed.path, index, window: sel.window };
    const span = symbolSpan(renamed, newSel, nowLines.length);
    const target = { alias: spec.alias, path: j.renamed ? refPathOf(j) : spec.path, renamed: j.renamed, start: span.start, end: span.end, lines: nowLines.length, symbol: newSel };
    return { status: 'deleted', ...then, newRef: `${head}#${formatSelector(newSel)}`, rewrite: true, target };
  }
  const span = symbolSpan(now, sel, nowLines.length);
  const current = nowLines.slice(span.start - 1, span.end);
  const movedRef = `${head}#${j.ref.slice(j.ref.indexOf('#') + 1)}`;
  if (sameTrimmed(block, current)) {
    if (!j.renamed) return { status: 'unchanged', ...then };
    const target = { alias: spec.alias, path: refPathOf(j), renamed: true, start: span.start, end: span.end, lines: nowLines.length, symbol: sel };
    return { status: 'moved', ...then, newRef: movedRef, target };
  }
  return { status: 'changed', ...then, editedLines: missingFrom(block, current), currentLines: current, ...(j.renamed ? { newRef: movedRef } : {}) };
}

/**
 * The one declaration that a removed one became: of the same kind, under a parent of the same
 * path, with a path the old file did not have, holding at least RENAME_SHARE of the old body's
 * lines (trimmed, blank lines aside, the line with the name left out since a rename edits it).
 * Null when none or several do, or the old body is empty (a one-line declaration).
 */
function renameOf(old: Declaration, oldTable: readonly Declaration[], oldLines: readonly string[], table: readonly Declaration[], nowLines: readonly string[]): Declaration | null {
  const body = bodyLines(old, oldLines);
  if (body.length === 0) return null;
  const parentPath = (d: Declaration, t: readonly Declaration[]) => (d.parent === null ? null : t[d.parent]!.path);
  const oldParent = parentPath(old, oldTable);
  const oldPaths = new Set(oldTable.map((d) => d.path));
  const found = table.filter((d) => {
    if (d.kind !== old.kind || oldPaths.has(d.path) || parentPath(d, table) !== oldParent) return false;
    return shared(body, bodyLines(d, nowLines)) >= RENAME_SHARE * body.length;
  });
  return found.length === 1 ? found[0]! : null;
}

function bodyLines(d: Declaration, lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let n = d.declLine; n <= d.endLine; n++) {
    if (n === d.nameLine) continue;
    const t = (lines[n - 1] ?? '').trim();
    if (t !== '') out.push(t);
  }
  return out;
}

/** How many of `a`'s lines `b` holds, each line of `b` counted once. */
function shared(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  let n = 0;
  for (const l of a) {
    const k = left.get(l) ?? 0;
    if (k > 0) {
      n++;
      left.set(l, k - 1);
    }
  }
  return n;
}

/** How many old lines (trimmed) the new ones do not have: the `edited_lines` of a changed symbol ref. */
function missingFrom(old: readonly string[], now: readonly string[]): number {
  const trim = (l: string) => l.trim();
  return old.length - shared(old.map(trim), now.map(trim));
}

function sameTrimmed(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((l, i) => l.trim() === b[i]!.trim());
}

/** The ref's path after its file was renamed, relative to the folder it was looked up in. */
function refPathOf(j: SymbolJudgement): string {
  const rel = path.relative(j.baseDir, j.now!).split(path.sep).join('/');
  return j.spec.alias ? rel : safePath(rel);
}

/** What stands before `#` once the file was renamed: the same alias or `@`, the new path. */
function renamedHead(j: SymbolJudgement): string {
  const head = j.ref.slice(0, j.ref.indexOf('#'));
  const prefix = j.spec.alias ? /^@?[A-Za-z][A-Za-z0-9_-]*:/.exec(head)![0] : head.startsWith('@') ? '@' : '';
  return prefix + escapePath(refPathOf(j));
}

function unknown(reason: string): SymbolVerdict {
  return { status: 'unknown', reason };
}

/** Lines as drift compares them: `\r\n` and `\n` end the same line, a BOM is not text. */
function linesOf(text: string): string[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
