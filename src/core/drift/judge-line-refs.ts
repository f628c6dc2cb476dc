import fs from 'node:fs';
import path from 'node:path';
import { escapePath, formatSelector, formatSpan, safePath } from '../ref-spec/format-ref-spec.js';
import type { LineSpan, RangeSelector, RefSpec, SymbolSelector } from '../ref-spec/ref-spec.js';
import { changesSince } from '../git/changes-since.js';
import { editsInside, type FileChange, type Hunk, mapLine } from '../git/diff-hunks.js';
import { GitError } from '../git/git-runner.js';
import type { GitRunner } from '../git/git-runner.js';
import { type GitObject, readObjects } from '../git/read-objects.js';
import { pathsAt } from '../git/tree-paths.js';
import { linesHash } from './accept-drift.js';
import { groupInto, resolveSpan } from './drift-types.js';
import { isolated, type LinePending, type Pending, type SymbolPending, toPosix, unknown } from './pending-ref.js';
import { judgeSymbol } from './symbol-drift.js';

/**
 * The verdict of each ref whose base and target are known (docs/reference.md#drift-verdicts): the
 * lines it selected at the base, read from git, against the target file now, with git's diff
 * between the two telling where they went. One `cat-file --batch` per target repository, one diff
 * per (repository, base) pair.
 */
export async function judge(pending: Pending[], git: GitRunner, baseFiles: boolean): Promise<void> {
  const byPair = new Map<string, Pending[]>();
  for (const p of pending) groupInto(byPair, `${p.targetRepo}\0${p.targetBase}\0${p.current ?? ''}`, p);
  setTargetRels(pending);
  const old = await oldTexts(pending, git);
  const currentLines = new Map<string, string[] | null>();
  const current = (file: string) => {
    if (!currentLines.has(file)) {
      let lines: string[] | null = null;
      try {
        lines = linesOf(fs.readFileSync(file));
      } catch {
        lines = null;
      }
      currentLines.set(file, lines);
    }
    return currentLines.get(file)!;
  };
  const byName: Promise<void>[] = [];
  await Promise.all([...byPair.values()].map((group) => judgePair(group, old, current, git, baseFiles, byName)));
  await Promise.all(byName);
}

/**
 * Each ref's `targetRel`, one `path.relative` per (repository, file): thousands of refs name a few
 * hundred files, and every git name below is built from it.
 */
function setTargetRels(pending: readonly Pending[]): void {
  const byRepo = new Map<string, Map<string, string>>();
  for (const p of pending) {
    let rels = byRepo.get(p.targetRepo!);
    if (!rels) byRepo.set(p.targetRepo!, (rels = new Map()));
    let rel = rels.get(p.target!);
    if (rel === undefined) rels.set(p.target!, (rel = toPosix(path.relative(p.targetRepo!, p.target!))));
    p.targetRel = rel;
  }
}

/** A ref's target file as its base had it, by the name `cat-file` reads it under. */
function oldName(p: Pending): string {
  return `${p.targetBase}:${p.targetRel!}`;
}

/** A ref's target file at its current version (a pin), when that is no working tree. */
function currentName(p: Pending): string | null {
  return p.current === undefined ? null : `${p.current}:${p.targetRel!}`;
}

interface OldTexts {
  /** By `repository\0oldName`. */
  texts: Map<string, GitObject | null>;
  /** Repositories where reading failed: their refs' reason. */
  failed: Map<string, GitError>;
}

/** Old contents: one batch per target repository. */
async function oldTexts(pending: readonly Pending[], git: GitRunner): Promise<OldTexts> {
  const texts = new Map<string, GitObject | null>();
  const failed = new Map<string, GitError>();
  await Promise.all([...new Set(pending.map((p) => p.targetRepo!))].map(async (repo) => {
    // A pinned alias's files at the pin are read in the same batch.
    const names = pending.filter((p) => p.targetRepo === repo).flatMap((p) => [oldName(p), currentName(p) ?? []].flat());
    const objects = await isolated(() => readObjects(git, repo, names));
    if (objects instanceof GitError) failed.set(repo, objects);
    else for (const [k, v] of objects) texts.set(`${repo}\0${k}`, v);
  }));
  return { texts, failed };
}

/** The refs of one (repository, base) pair, judged from one diff; symbol refs are pushed onto `byName`. */
async function judgePair(group: Pending[], old: OldTexts, current: (file: string) => string[] | null, git: GitRunner, baseFiles: boolean, byName: Promise<void>[]): Promise<void> {
  const { targetRepo, targetBase } = group[0]!;
  const repo = targetRepo!;
  const base = targetBase!;
  const rels = [...new Set(group.map((p) => p.targetRel!))];
  const to = group[0]!.current;
  const result = old.failed.get(repo) ?? (await isolated(() => changesSince(git, repo, base, rels, to)));
  if (result instanceof GitError) {
    for (const p of group) unknown(p.entry, result.message);
    return;
  }
  const pinned = to === undefined ? null : await atCommit(group, old, result, to, git);
  if (pinned instanceof GitError) {
    for (const p of group) unknown(p.entry, pinned.message);
    return;
  }
  const now = pinned ? pinned.lines : current;
  const missing = group.filter((p) => !old.texts.get(`${repo}\0${oldName(p)}`));
  // A path the base has whose object git cannot read: a partial clone or a damaged repository.
  const unreadable = missing.length > 0 ? await isolated(() => pathsAt(git, repo, base, missing.map((p) => p.targetRel!))) : new Set<string>();
  // Many refs share a file: its old text is split into lines once.
  const oldLines = new Map<string, string[]>();
  for (const p of group) {
    p.entry.base = base;
    const oldText = old.texts.get(`${repo}\0${oldName(p)}`);
    const rel = p.targetRel!;
    if (!oldText) {
      if (unreadable instanceof GitError) unknown(p.entry, unreadable.message);
      else if (unreadable.has(rel)) unknown(p.entry, `git cannot read ${p.input.spec.path} at ${base.slice(0, 7)} in ${repo}: its object is missing (a partial clone or a damaged repository)`);
      else unknown(p.entry, `${p.input.spec.path} did not exist at ${base.slice(0, 7)}`);
      continue;
    }
    const change = result.get(rel) ?? null;
    if (p.selector.kind === 'symbol') {
      byName.push(judgeSymbolRef(p as SymbolPending, oldText.data, change, repo, pinned?.text));
      continue;
    }
    if (baseFiles) p.entry.baseFile = { text: oldText.data, target: p.target! };
    let lines = oldLines.get(oldText.oid);
    if (!lines) oldLines.set(oldText.oid, (lines = linesOf(oldText.data)));
    judgeOne(p as LinePending, lines, change, now, repo);
  }
}

/**
 * The lines of the group's files at the commit `to` (a pin), by absolute path: read with the old
 * texts, and a file renamed since the base in one more batch.
 */
async function atCommit(
  group: readonly Pending[],
  old: OldTexts,
  changes: Map<string, FileChange>,
  to: string,
  git: GitRunner,
): Promise<{ lines: (file: string) => string[] | null; text: (file: string) => Buffer | null } | GitError> {
  const repo = group[0]!.targetRepo!;
  const texts = new Map<string, Buffer | null>();
  const renamed: string[] = [];
  for (const p of group) {
    const rel = p.targetRel!;
    const now = changes.get(rel)?.newPath ?? rel;
    if (now === rel) texts.set(p.target!, old.texts.get(`${repo}\0${currentName(p)}`)?.data ?? null);
    else renamed.push(now);
  }
  if (renamed.length > 0) {
    const read = await isolated(() => readObjects(git, repo, renamed.map((r) => `${to}:${r}`)));
    if (read instanceof GitError) return read;
    for (const r of renamed) texts.set(path.join(repo, r), read.get(`${to}:${r}`)?.data ?? null);
  }
  const lines = new Map<string, string[] | null>();
  return {
    lines: (file) => {
      if (!lines.has(file)) {
        const data = texts.get(file);
        lines.set(file, data ? linesOf(data) : null);
      }
      return lines.get(file)!;
    },
    text: (file) => texts.get(file) ?? null,
  };
}

/** A symbol ref, judged by name (symbol-drift.ts) from the same old text and the same diff. */
async function judgeSymbolRef(p: SymbolPending, oldText: Buffer, change: FileChange | null, repo: string, atPin?: (file: string) => Buffer | null): Promise<void> {
  const now = change && change.newPath === null ? null : change?.newPath ? path.join(repo, change.newPath) : p.target!;
  const spec = p.input.spec as RefSpec & { selector: SymbolSelector };
  const nowText = atPin && now !== null ? { nowText: atPin(now) } : {};
  const { currentLines, ...verdict } = await judgeSymbol({ base: p.entry.base!, spec, ref: p.input.ref, oldText, now, ...nowText, baseDir: p.baseDir!, renamed: now !== null && now !== p.target });
  Object.assign(p.entry, verdict);
  if (currentLines) {
    // A changed symbol ref is a warning, and --accept records it as a line ref.
    p.entry.byName = true;
    p.entry.acceptKey = { repo: p.scanRepo, doc: toPosix(path.relative(p.scanRepo, p.input.file)), lines: linesHash(currentLines) };
  }
}

function judgeOne(p: LinePending, oldLines: string[], change: FileChange | null, current: (file: string) => string[] | null, repo: string): void {
  const entry = p.entry;
  const span = resolveSpan(p.selector, oldLines.length);
  if (span.start > span.end) {
    unknown(entry, `${p.input.spec.path} had ${oldLines.length} lines at ${entry.base!.slice(0, 7)}`);
    return;
  }
  const block = oldLines.slice(span.start - 1, span.end);
  entry.oldLines = block.length;
  entry.baseLines = block;
  if (change && change.newPath === null) {
    entry.status = 'deleted';
    return;
  }
  const newFile = change?.newPath ? path.join(repo, change.newPath) : p.target!;
  const renamed = newFile !== p.target;
  const lines = current(newFile);
  if (!lines) {
    entry.status = 'deleted';
    return;
  }
  const hunks: Hunk[] = change?.hunks ?? [];
  if (!renamed && sameAt(lines, block, span.start)) {
    entry.status = 'unchanged';
    return;
  }
  const hits = occurrences(lines, block);
  const mappedStart = mapLine(hunks, span.start);
  let at: number | null = null;
  if (hits.length === 1) at = hits[0]!;
  else if (hits.length > 1 && !mappedStart.edited && hits.includes(mappedStart.line)) at = mappedStart.line;
  if (at !== null) {
    entry.status = 'moved';
    entry.newRef = newRefFor(p, { start: at, end: at + block.length - 1 }, span, lines.length, renamed ? newFile : null);
    return;
  }
  entry.status = 'changed';
  const now = resolveSpan(p.selector, lines.length);
  entry.acceptKey = { repo: p.scanRepo, doc: toPosix(path.relative(p.scanRepo, p.input.file)), lines: linesHash(lines.slice(now.start - 1, Math.max(now.end, now.start - 1))) };
  let edited = 0;
  for (let n = span.start; n <= span.end; n++) if (mapLine(hunks, n).edited) edited++;
  // A rename git paired with enough edits can leave no hunk on these lines and still differ.
  entry.editedLines = edited > 0 ? edited : block.filter((l, i) => lines[mapLine(hunks, span.start + i).line - 1] !== l).length;
  const inside = editsInside(hunks, span.start, span.end);
  entry.insertedLines = inside.inserted;
  entry.deletedLines = inside.deleted;
  const from = mapLine(hunks, span.start).line;
  const to = Math.max(mapLine(hunks, span.end).line, from);
  entry.newRef = newRefFor(p, { start: Math.min(from, Math.max(lines.length, 1)), end: Math.min(to, Math.max(lines.length, 1)) }, span, lines.length, renamed ? newFile : null);
}

function sameAt(lines: readonly string[], block: readonly string[], start: number): boolean {
  if (start - 1 + block.length > lines.length) return false;
  return block.every((l, i) => lines[start - 1 + i] === l);
}

/** Each file's lines by text, to their 1-based numbers: a file many refs name is scanned once. */
const lineIndexes = new WeakMap<readonly string[], Map<string, number[]>>();

/** 1-based starts of every contiguous copy of `block` in `lines`, in order. */
export function occurrences(lines: readonly string[], block: readonly string[]): number[] {
  if (block.length === 0) return scanOccurrences(lines, block);
  let index = lineIndexes.get(lines);
  if (!index) {
    index = new Map();
    for (let i = 0; i < lines.length; i++) groupInto(index, lines[i]!, i + 1);
    lineIndexes.set(lines, index);
  }
  return (index.get(block[0]!) ?? []).filter((start) => sameAt(lines, block, start));
}

/** occurrences() by reading every line: the full answer the index must equal. */
export function scanOccurrences(lines: readonly string[], block: readonly string[]): number[] {
  const hits: number[] = [];
  for (let i = 0; i + block.length <= lines.length; i++) {
    if (lines[i] !== block[0]) continue;
    if (sameAt(lines, block, i + 1)) hits.push(i + 1);
  }
  return hits;
}

/**
 * The ref with its lines at `span` (and its new path after a rename): the same alias, path and
 * form (a window keeps its window) when that form selects exactly `span` in the current file,
 * else the concrete `#Lstart-Lend`.
 */
function newRefFor(p: LinePending, span: LineSpan, oldSpan: LineSpan, count: number, renamedTo: string | null): string {
  const raw = p.input.ref;
  const hash = raw.indexOf('#');
  let head = raw.slice(0, hash);
  const alias = p.input.spec.alias;
  let refPath = p.input.spec.path;
  if (renamedTo) {
    // A relative path that would read as `alias:path` gets a `./`, as a printed spec does.
    refPath = toPosix(path.relative(p.baseDir!, renamedTo));
    if (!alias) refPath = safePath(refPath);
    const prefix = alias ? /^@?[A-Za-z][A-Za-z0-9_-]*:/.exec(head)![0] : '@';
    head = prefix + escapePath(refPath);
  }
  p.entry.target = { alias, path: refPath, renamed: renamedTo !== null, start: span.start, end: span.end, lines: count };
  const delta = span.start - oldSpan.start;
  const sel = p.selector;
  const shifted: RangeSelector = { kind: 'range', start: sel.start + delta, end: sel.end === null ? null : sel.end + delta, window: sel.window };
  const fits = shifted.start >= 1 && (shifted.end === null || shifted.end >= shifted.start);
  // A form that reaches past either end of the file selects fewer lines than it says (verify refs
  // warns that it clamps): a ref written anew says the lines it selects.
  if (fits && withinFile(shifted, count)) {
    const got = resolveSpan(shifted, count);
    if (got.start === span.start && got.end === span.end) {
      if (delta === 0) return head + raw.slice(hash);
      // Keep the writer's spelling (`L10-20`, `:5..10`), only the numbers change.
      const m = /^L(\d+)(?:(-L?)(\d*))?(:.*)?$/.exec(raw.slice(hash + 1));
      if (m) return `${head}#L${shifted.start}${m[2] ?? ''}${m[3] ? String(shifted.end) : ''}${m[4] ?? ''}`;
      return head + '#' + formatSelector(shifted);
    }
  }
  return head + formatSpan(span);
}

/** Whether a range selector names only lines the file has (before any clamping). */
function withinFile(sel: RangeSelector, count: number): boolean {
  const first = sel.start - (sel.window?.before ?? 0);
  const last = sel.end === null || (sel.window && sel.window.after === null) ? null : sel.end + (sel.window?.after ?? 0);
  return first >= 1 && (last === null || last <= count);
}

/** Lines of a text as compared: `\r\n` and `\n` end the same line, a BOM is not text. */
function linesOf(buf: Buffer | string): string[] {
  let text = typeof buf === 'string' ? buf : buf.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
