import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { AliasResolver, aliasOrUnsure } from '../alias/resolve-aliases.js';
import { detectDrift } from '../drift/detect-drift.js';
import type { DriftEntry, DriftNotFixed, DriftRefInput, DriftReport } from '../drift/drift-types.js';
import { fixDrift } from '../drift/fix-drift.js';
import type { GitRunner } from '../git/git-runner.js';
import type { RangeSelector, SymbolSelector } from '../ref-spec/ref-spec.js';
import { verifyRefs } from '../verify-refs/verify-refs.js';
import { resolveFiles } from '../extract/extract.js';
import { prepareVersions } from '../versions/prepare-versions.js';
import { hasGlobChars } from '../walk/glob.js';
import { declarationOfLines, type LinesDeclaration, symbolRefText } from './declaration-lines.js';

/**
 * `refcat anchor` (docs/drift.md#anchoring): rewrite each line ref whose lines are exactly one
 * declaration into that declaration's symbol ref, in docs and `.conv` files. Refs are found as
 * `verify refs` finds them, and written as `--fix` writes (fix-drift.ts: only the ref's characters
 * change, one atomic replace per file, links and INCLUDEs only inside the working directory or the
 * repository, a file changed since the scan left alone).
 */

export interface AnchorOptions {
  exclude?: readonly string[];
  skipIgnored?: boolean;
  aliases?: AliasResolver;
  /** Anchor each ref at its base: the declaration its lines were at the version it was written against. */
  drift?: { since?: string; git?: GitRunner };
  dryRun?: boolean;
}

export interface Anchored {
  /** Absolute path of the doc or workflow. */
  file: string;
  line: number;
  ref: string;
  newRef: string;
}

export interface AnchorReport {
  filesScanned: number;
  refsFound: number;
  anchored: Anchored[];
  /** Refs found and left as they are (not one declaration, not a unique name, or not written). */
  left: number;
  /** Files not written, and why (as --fix reports them). */
  notWritten: DriftNotFixed[];
  /** Docs and workflows the scan could not read (a FIFO, binary, too large): no ref of theirs was found. */
  notRead: { file: string; reason: string }[];
  dryRun: boolean;
  /** With `drift`: git processes started. */
  gitProcesses?: number;
}

export async function anchorRefs(paths: readonly string[], ctx: Context, options: AnchorOptions = {}): Promise<AnchorReport> {
  const aliases = options.aliases ?? new AliasResolver(ctx);
  let refs: readonly DriftRefInput[] = [];
  const scan = await verifyRefs(paths, ctx, { exclude: options.exclude, skipIgnored: options.skipIgnored, aliases, snippets: false, onRefs: (found) => (refs = found.filter((r): r is DriftRefInput => 'spec' in r)) });
  const lineRefs = refs.filter((r) => r.spec.selector?.kind === 'range' && !hasGlobChars(r.spec.path) && !isBareCitation(r));
  const elsewhere = await readElsewhere(lineRefs, ctx, aliases);
  const entries: DriftEntry[] = [];
  let gitProcesses: number | undefined;
  if (options.drift) {
    const drift = await detectDrift(lineRefs, ctx, { since: options.drift.since, git: options.drift.git, baseFiles: true });
    gitProcesses = drift.gitProcesses;
    for (const [i, e] of drift.entries.entries()) {
      const found = elsewhere.has(lineRefs[i]!) ? null : e.baseFile ? await atBase(lineRefs[i]!, e.baseFile) : e.status === 'unchanged' && e.base === null ? await now(lineRefs[i]!) : null;
      if (found) entries.push(rewriteOf(lineRefs[i]!, found, { ...e, baseFile: undefined }));
      // A changed or deleted ref keeps its line as it is: rewriting the line would end its verdict unreviewed.
      else if (e.status === 'changed' || e.status === 'deleted') entries.push(e);
    }
  } else {
    for (const r of lineRefs) {
      const found = elsewhere.has(r) ? null : await now(r);
      if (found) entries.push(rewriteOf(r, found, null));
    }
  }
  const report: DriftReport = { entries, counts: { unchanged: 0, moved: 0, changed: 0, deleted: 0, unknown: 0, anchored: 0, fixed: 0, accepted: 0 }, gitProcesses: gitProcesses ?? 0 };
  const fixes = await fixDrift(report, ctx, { dryRun: options.dryRun ?? false, isKnownAlias: aliasOrUnsure(aliases) });
  const anchored = fixes.map((f) => ({ file: f.file, line: f.line, ref: f.oldRef, newRef: f.newRef }));
  // Said as verify refs says it: a doc it could not read is counted as scanned, and holds no refs.
  const notRead = [...scan.errors, ...scan.warnings].filter((f) => f.line === null && !f.ref && NOT_READ.has(f.code)).map((f) => ({ file: f.file, reason: f.message }));
  return {
    filesScanned: scan.filesScanned,
    refsFound: scan.refsFound,
    anchored,
    left: scan.refsFound - anchored.length,
    notWritten: report.notFixed ?? [],
    notRead,
    dryRun: options.dryRun ?? false,
    ...(gitProcesses !== undefined ? { gitProcesses } : {}),
  };
}

/** The codes of verify refs' findings about a doc it did not read (find-refs.ts readDoc). */
const NOT_READ = new Set(['unreadable', 'binary', 'too_large']);

/**
 * embedme's bare citation (`// src/a.ts#L3-L9` in a fence): embedme reads only line ranges, so a
 * name there would break the docs it keeps.
 */
function isBareCitation(r: DriftRefInput): boolean {
  return r.spec.alias === null && !r.ref.startsWith('@') && !r.file.toLowerCase().endsWith('.conv');
}

/**
 * The refs read at a version the checkout does not hold as it is (a revision ref, an alias the
 * lockfile pins and the clone has elsewhere: docs/refs.md#refs-at-a-version). Declarations are
 * read on disk here, so such a ref is left as written: anchored to the checkout's lines, it would
 * name what its version does not hold. A ref whose version cannot be read is left too.
 */
async function readElsewhere(refs: readonly DriftRefInput[], ctx: Context, aliases: AliasResolver): Promise<Set<DriftRefInput>> {
  const versioned = refs.filter((r) => r.spec.rev !== undefined || r.alias?.pin !== undefined);
  if (versioned.length === 0) return new Set();
  const versions = await prepareVersions(versioned.map((r) => ({ inputs: [r.ref], searchDirs: [...r.searchDirs] })), ctx, { aliases });
  const out = new Set<DriftRefInput>();
  for (const r of versioned) {
    try {
      const [file] = resolveFiles(r.spec, ctx, { aliases, versions: versions ?? undefined, searchDirs: [...r.searchDirs] });
      // Bytes null: the checkout holds that version of the file as it is.
      const bytes = file?.version?.bytes;
      if (!file || (bytes && !sameOnDisk(file.path, bytes))) out.add(r);
    } catch {
      out.add(r);
    }
  }
  return out;
}

/** The declaration a line ref's lines are in the file as it is now, when its name resolves to it. */
async function now(r: DriftRefInput): Promise<LinesDeclaration | null> {
  const target = r.searchDirs.map((d) => path.resolve(d, r.spec.path)).find((f) => isFile(f));
  if (!target) return null;
  let text: string;
  try {
    text = fs.readFileSync(target, 'utf8');
  } catch {
    return null;
  }
  return declarationOfLines(target, text, r.spec.selector as RangeSelector, r.ref, false);
}

/**
 * The declaration a line ref's lines were at its base, when that name resolves to one declaration
 * in the file as it is now (anchored to what it was written against, not to what is there now).
 */
async function atBase(r: DriftRefInput, base: { text: Buffer; target: string }): Promise<LinesDeclaration | null> {
  if (!isFile(base.target)) return null;
  return declarationOfLines(base.target, base.text.toString('utf8'), r.spec.selector as RangeSelector, r.ref, true);
}

function rewriteOf(r: DriftRefInput, found: LinesDeclaration, entry: DriftEntry | null): DriftEntry {
  const sel: SymbolSelector = { kind: 'symbol', path: found.declaration.path, index: null, window: null };
  const e: DriftEntry = entry ?? { file: r.file, line: r.line, ref: r.ref, status: 'unchanged', base: null, newRef: null, editedLines: 0, insertedLines: 0, deletedLines: 0, oldLines: 0, reason: null };
  if (entry === null) {
    if (r.stamp !== undefined) e.stamp = r.stamp;
    if (r.includedBy !== undefined) e.includedBy = r.includedBy;
  }
  e.newRef = symbolRefText(r.ref, sel);
  e.rewrite = true;
  e.target = { alias: r.spec.alias, path: r.spec.path, renamed: false, start: found.now.start, end: found.now.end, lines: found.lines, symbol: sel };
  return e;
}

function sameOnDisk(file: string, bytes: Buffer): boolean {
  try {
    return fs.readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
