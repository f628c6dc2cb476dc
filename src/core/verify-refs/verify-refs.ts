import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Finding, RefError } from '../../shared/errors.js';
import { displayRelative, shownPath } from '../../shared/paths.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { type ConvReader, loadConv } from '../workflow/load-conv.js';
import type { Confinement } from '../safe-read/confinement.js';
import { checkConvRefs, workflowAliases } from '../workflow/validate-conv.js';
import { extract } from '../extract/extract.js';
import { PatternBudget } from '../extract/pattern-search.js';
import { hasGlobChars } from '../walk/glob.js';
import { MAX_TEXT_FILE_BYTES, readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { collectFiles, type SkippedFile, walkFiles } from '../walk/collect-files.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { findDocRefs } from './find-doc-refs.js';
import { convRefs } from '../workflow/conv-refs.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { detectDrift, type DriftRefInput, type DriftReport } from '../drift/detect-drift.js';
import { type DriftFix, fixDrift } from '../drift/fix-drift.js';

/** The file types `verify refs` scans in folders (docs/reference.md#verify-refs). */
export const VERIFY_EXTENSIONS: readonly string[] = ['.md', '.conv', '.txt', '.yaml', '.yml'];

export interface VerifyRefsOptions {
  /** `-e/--exclude` globs. */
  exclude?: readonly string[];
  /** Aliases of the command line and config files. */
  aliases?: AliasResolver;
  /** Propose existing files with the same name for refs to missing files. */
  suggestFixes?: boolean;
  /** Warnings (clamped ranges, CONTEXT-OPTIONAL matching nothing) fail the check too. */
  strict?: boolean;
  /** Called after each file is checked (for a progress line on a terminal). */
  onProgress?: (checked: number, total: number) => void;
  readFile?: ConvReader;
  /** Refs to files this does not allow are refused before they are looked at, and get no drift verdict (ExtractOptions.confine). */
  confine?: Confinement;
  /** Also say whether each line ref still points at the code it was written against (docs/reference.md#drift-verdicts). */
  drift?: {
    /** Compare against this revision instead of the commit that last changed the ref's line. */
    since?: string;
    /** Rewrite moved refs in place. */
    fix?: boolean;
    /** With fix: report what would be rewritten, write nothing. */
    dryRun?: boolean;
  };
}

export interface RefFinding extends Finding {
  /** With suggestFixes: refs to existing files with the same name, best first. */
  suggestions?: string[];
}

export interface VerifyRefsReport {
  filesScanned: number;
  /** Files with a scanned extension that `.sdqctlignore` or `--exclude` kept out. */
  skipped: SkippedFile[];
  refsFound: number;
  valid: number;
  broken: number;
  /** One per broken ref (a glob ref may break for several files). */
  errors: RefFinding[];
  warnings: RefFinding[];
  passed: boolean;
  /** With the `drift` option: a verdict for every ref found, and what --fix rewrote (or would). */
  drift?: DriftReport & { fixes: DriftFix[]; dryRun: boolean };
}

const MAX_SUGGESTIONS = 5;
/** Docs are read whole; a file this large is a data file or a log, not documentation. */
const MAX_DOC_BYTES = MAX_TEXT_FILE_BYTES;

/**
 * `refcat verify refs` (docs/reference.md#verify-refs): check only the references in `paths` (default `.`). A `.conv`
 * file has its REFCAT / CONTEXT refs checked as `validate` does (ALIAS and INCLUDE included);
 * other files are scanned for refs (scan.ts). A doc's relative ref is looked up in the doc's
 * folder, then in the folder being scanned, then in cwd. Throws UsageError for a path that does
 * not exist.
 */
export function verifyRefs(paths: readonly string[], ctx: Context, options: VerifyRefsOptions = {}): VerifyRefsReport {
  const { files, skipped } = collectFiles(paths.length > 0 ? paths : ['.'], ctx, { extensions: VERIFY_EXTENSIONS, exclude: options.exclude });
  const base = options.aliases ?? new AliasResolver(ctx);
  const findings: RefFinding[] = [];
  let refsFound = 0;
  // One CPU-time budget for every pattern of the call.
  const budget = new PatternBudget();
  const driftRefs: DriftRefInput[] | undefined = options.drift ? [] : undefined;
  for (const [i, file] of files.entries()) {
    options.onProgress?.(i, files.length);
    refsFound += file.path.toLowerCase().endsWith('.conv')
      ? checkWorkflow(file.path, ctx, base, options.readFile, findings, budget, driftRefs, options.confine)
      : checkDoc(file.path, file.root, ctx, base, findings, budget, driftRefs, options.confine);
  }
  let drift: VerifyRefsReport['drift'];
  if (options.drift && driftRefs) {
    const found = detectDrift(driftRefs, ctx, { since: options.drift.since });
    const dryRun = options.drift.dryRun ?? false;
    drift = { ...found, dryRun, fixes: options.drift.fix ? fixDrift(found, ctx, { dryRun }) : [] };
  }
  if (options.suggestFixes) addSuggestions(findings, base, files.map((f) => f.root));

  const errors = findings.filter((f) => f.severity === 'error');
  const warnings = findings.filter((f) => f.severity === 'warning');
  // Findings without a ref (a malformed ALIAS, an unreadable file) fail the run but are not refs.
  const broken = new Set(errors.filter((f) => f.ref).map((f) => `${f.file}\0${f.line}\0${f.ref}`)).size;
  return {
    filesScanned: files.length,
    skipped,
    refsFound,
    valid: refsFound - broken,
    broken,
    errors,
    warnings,
    passed: errors.length === 0 && !(options.strict && warnings.length > 0) && driftPasses(drift, options.strict ?? false),
    ...(drift ? { drift } : {}),
  };
}

/** Changed and deleted refs fail the check; moved and unknown ones only with --strict. */
function driftPasses(drift: DriftReport | undefined, strict: boolean): boolean {
  if (!drift) return true;
  const { changed, deleted, moved, unknown } = drift.counts;
  return changed + deleted === 0 && !(strict && moved + unknown > 0);
}

/** A ref as detectDrift needs it; an unparseable ref or an unknown alias is already broken. */
function driftInput(file: string, line: number, text: string, ref: string, aliases: AliasResolver, searchDirs: readonly string[]): DriftRefInput | null {
  let spec: RefSpec;
  try {
    spec = parseRef(ref);
    const alias = spec.alias ? aliases.lookup(spec.alias) : null;
    if (spec.alias && !alias) return null;
    return { file, line, ref: text, spec, alias: alias ?? null, searchDirs: alias ? [alias.target] : searchDirs };
  } catch (err) {
    if (err instanceof RefError || (err as { exitCode?: number }).exitCode !== undefined) return null;
    throw err;
  }
}

function checkWorkflow(
  file: string,
  ctx: Context,
  base: AliasResolver,
  readFile: ConvReader | undefined,
  findings: Finding[],
  budget: PatternBudget,
  driftRefs?: DriftRefInput[],
  confine?: Confinement,
): number {
  const display = (p: string) => shownPath(ctx.cwd, p);
  try {
    const conv = loadConv(file, { readFile, display });
    const aliases = workflowAliases(conv, ctx, base, display, findings);
    const count = checkConvRefs(conv, ctx, aliases, findings, false, budget, confine);
    const refused = new Set(findings.filter((f) => f.code === 'outside_root').map((f) => `${f.file}\0${f.line}\0${f.ref}`));
    for (const r of driftRefs ? convRefs(conv) : []) {
      if (refused.has(`${r.directive.file}\0${r.directive.line}\0${r.ref}`)) continue;
      const input = driftInput(r.directive.file, r.directive.line, r.ref, r.ref, aliases, [path.dirname(r.directive.file), ctx.cwd]);
      if (input) driftRefs!.push(input);
    }
    return count;
  } catch (err) {
    if (!(err instanceof RefError)) throw err;
    findings.push({ severity: 'error', code: err.code, message: err.message, details: [], file, line: null });
    return 0;
  }
}

function checkDoc(
  file: string,
  root: string,
  ctx: Context,
  aliases: AliasResolver,
  findings: Finding[],
  budget: PatternBudget,
  driftRefs?: DriftRefInput[],
  confine?: Confinement,
): number {
  let text: string;
  try {
    text = readTextFile(file, MAX_DOC_BYTES);
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    // Binary, not UTF-8 or too large: not a doc, not scanned, with a warning (so --strict fails);
    // anything else fails the run.
    const skip = err.code === 'too_large' || err.code === 'binary';
    const problem = err.code === 'binary' ? 'is binary or not UTF-8' : err.problem;
    const message = `${skip ? 'Not scanned' : 'Cannot read'}: ${shownPath(ctx.cwd, file)} ${problem}`;
    findings.push({ severity: skip ? 'warning' : 'error', code: skip ? err.code : 'unreadable', message, details: [], file, line: null });
    return 0;
  }
  const refs = findDocRefs(text, {
    markdown: /\.(md|markdown|txt)$/i.test(file),
    isKnownAlias: (name) => aliases.lookup(name) !== undefined,
  });
  const searchDirs = [...new Set([path.dirname(file), root, ctx.cwd])];
  for (const r of refs) {
    const report = extract([r.ref], ctx, { searchDirs, aliases, checkOnly: true, patternBudget: budget, confine });
    const at = (severity: Finding['severity']) => (d: (typeof report.errors)[number]) =>
      findings.push({ severity, code: d.code, message: d.message, details: d.details, ref: r.text, file, line: r.line });
    report.errors.forEach(at('error'));
    report.warnings.forEach(at('warning'));
    const input = driftRefs && !report.errors.some((e) => e.code === 'outside_root') && driftInput(file, r.line, r.text, r.ref, aliases, searchDirs);
    if (input) driftRefs!.push(input);
  }
  return refs.length;
}

/**
 * For every ref to a missing file: existing files with the same name below the alias root (alias
 * refs) or below the scanned folders, as refs with the original selector, closest path first
 * (most trailing folders in common, then shortest).
 */
function addSuggestions(findings: RefFinding[], aliases: AliasResolver, roots: string[]): void {
  const indexes = new Map<string, Map<string, string[]>>();
  const indexOf = (root: string) => {
    let index = indexes.get(root);
    if (!index) {
      index = new Map();
      for (const file of walkFiles(root, root, [], () => true)) {
        const name = path.basename(file);
        index.set(name, [...(index.get(name) ?? []), displayRelative(root, file)]);
      }
      indexes.set(root, index);
    }
    return index;
  };
  const scanRoots = [...new Set(roots)];
  for (const f of findings) {
    if (f.severity !== 'error' || (f.code !== 'not_found' && f.code !== 'context_no_match') || !f.ref) continue;
    // The ref as written may end in a heading anchor (`@docs/GUIDE.md#install`), not a selector.
    const hash = f.ref.indexOf('#');
    const spec = parseRef(hash === -1 ? f.ref : f.ref.slice(0, hash));
    if (hasGlobChars(spec.path)) continue;
    const selector = hash === -1 ? '' : f.ref.slice(hash);
    const wanted = spec.path.split('/');
    const roots = spec.alias ? [aliases.lookup(spec.alias)?.target].filter((r): r is string => !!r) : scanRoots;
    const candidates = roots.flatMap((root) => indexOf(root).get(wanted[wanted.length - 1]!) ?? []);
    const shared = (p: string) => {
      const parts = p.split('/');
      let n = 0;
      while (n < parts.length && n < wanted.length && parts[parts.length - 1 - n] === wanted[wanted.length - 1 - n]) n++;
      return n;
    };
    f.suggestions = [...new Set(candidates)]
      .sort((a, b) => shared(b) - shared(a) || a.length - b.length || (a < b ? -1 : 1))
      .slice(0, MAX_SUGGESTIONS)
      .map((p) => (spec.alias ? `${spec.alias}:${p}` : `@${p}`) + selector);
  }
}
