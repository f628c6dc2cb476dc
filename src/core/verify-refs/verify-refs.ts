import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { ConfigError, type Finding, RefError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { type ConvReader, loadConv } from '../workflow/load-conv.js';
import { Confinement } from '../safe-read/confinement.js';
import { checkConvRefs, relaxedBy, relaxMissing, searchDirsFor, workflowAliases } from '../workflow/validate-conv.js';
import { extract } from '../extract/extract.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { ReadCache } from '../extract/read-cache.js';
import { SnippetFiles } from '../snippets/snippet-files.js';
import { WalkCache } from '../walk/walk-cache.js';
import { MAX_TEXT_FILE_BYTES, readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { collectFiles, type SkippedFile } from '../walk/collect-files.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { findDocRefs } from '../doc-refs/find-doc-refs.js';
import { folderLookup, groupNotCloned, intoFolderNotCloned } from './group-not-cloned.js';
import { addSuggestions, pinnedTrees } from './suggest-fixes.js';
import type { RefFinding } from './ref-finding.js';
import { convRefs } from '../workflow/conv-refs.js';
import { WorkflowParts } from '../workflow/workflow-parts.js';
import { type PlannedWorkflow, planWorkflows } from './plan-workflows.js';
import { type DetectDriftOptions, detectDrift } from '../drift/detect-drift.js';
import type { DriftRefInput, DriftReport, UnresolvedDriftRef } from '../drift/drift-types.js';
import { type DriftFix, fixDrift, scanStamp } from '../drift/fix-drift.js';
import { acceptDrift, type DriftAcceptance } from '../drift/accept-drift.js';
import type { Citation } from '../snippets/find-citations.js';
import { addSnippetEntry, docCitations, emptySnippetReport, judgeSnippet, type SnippetEntry, type SnippetReport } from '../snippets/judge-snippets.js';
import { judgeAtBase, judgeFixedAgain, keepBareRefs, refreshSnippets } from '../snippets/snippet-drift.js';
import { loadGrammars } from '../symbols/grammar-loader.js';
import type { SymbolLanguage } from '../symbols/languages.js';
import { missingGrammars, prepareSymbolRefs } from '../symbols/prepare-symbol-refs.js';
import { READ_AT_PIN, type RefToCheck, RunVersions } from '../versions/run-versions.js';
import type { VersionMode } from '../versions/version-reader.js';

/** The file types `verify refs` scans in folders (docs/reference.md#verify-refs). */
export const VERIFY_EXTENSIONS: readonly string[] = ['.md', '.conv', '.txt', '.yaml', '.yml'];

export interface VerifyRefsOptions {
  /** `-e/--exclude` globs. */
  exclude?: readonly string[];
  /** `--skip-ignored`: files named directly are kept out by `./.sdqctlignore` too (CollectOptions.skipIgnored). */
  skipIgnored?: boolean;
  /** Aliases of the command line and config files. */
  aliases?: AliasResolver;
  /** Propose existing files with the same name for refs to missing files. */
  suggestFixes?: boolean;
  /**
   * Refs into an alias folder that does not exist (an external not cloned) are warnings, one per
   * folder; every other ref is checked as usual (docs/workflows.md#externals-not-cloned-yet).
   */
  allowMissing?: boolean;
  /** Warnings (clamped ranges, CONTEXT-OPTIONAL matching nothing) fail the check too. */
  strict?: boolean;
  /**
   * Compare cited snippets with the code they cite (docs/snippets.md); default true. False
   * (`--no-snippets`): citations are still found and their refs checked.
   */
  snippets?: boolean;
  /** Called after each file is checked (for a progress line on a terminal). */
  onProgress?: (checked: number, total: number) => void;
  readFile?: ConvReader;
  /**
   * Refs to files this does not allow are refused before they are looked at, and get no drift
   * verdict (ExtractOptions.confine); a symlink leading outside it is collected unfollowed (CollectOptions.confine).
   */
  confine?: Confinement;
  /** Also say whether each line ref still points at the code it was written against (docs/reference.md#drift-verdicts). */
  drift?: {
    /** Compare against this revision instead of the commit that last changed the ref's line. */
    since?: string;
    /** Rewrite moved refs in place. */
    fix?: boolean;
    /** With fix: report what would be rewritten, write nothing. */
    dryRun?: boolean;
    /** Also refresh stale snippets that were verbatim copies at their base (docs/snippets.md#--fix-snippets). */
    fixSnippets?: boolean;
    /** Record every changed ref as reviewed (docs/drift.md#accepting-a-change). */
    accept?: boolean;
    /** The git runner (its concurrency, its process count) and the shortcuts of detectDrift. */
    git?: DetectDriftOptions['git'];
    blameEveryFile?: boolean;
  };
  /** `--worktree` reads pinned aliases' checkouts; `--pinned` makes a pin the clone lacks an error (docs/refs.md#refs-at-a-version). */
  versionMode?: VersionMode;
  /** Handed every ref found, as drift reads refs, once the scan is done (`refcat anchor`: docs/drift.md#anchoring). */
  onRefs?: (refs: readonly (DriftRefInput | UnresolvedDriftRef)[]) => void;
}

export type { RefFinding } from './ref-finding.js';
export { addSuggestions } from './suggest-fixes.js';

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
  /** Every cited snippet's verdict (absent with `snippets: false`). */
  snippets?: SnippetReport;
  /** With the `drift` option: a verdict for every ref found, and what --fix rewrote (or would). */
  drift?: DriftReport & { fixes: DriftFix[]; dryRun: boolean; acceptances?: DriftAcceptance[] };
}

/** Docs are read whole; a file this large is a data file or a log, not documentation. */
const MAX_DOC_BYTES = MAX_TEXT_FILE_BYTES;

/**
 * `refcat verify refs` (docs/reference.md#verify-refs): check only the references in `paths` (default `.`). A `.conv`
 * file has its REFCAT / CONTEXT refs checked as `validate` does (ALIAS and INCLUDE included);
 * other files are scanned for refs (scan.ts). A doc's relative ref is looked up in the doc's
 * folder, then in the folder being scanned, then in cwd. Throws UsageError for a path that does
 * not exist.
 */
export async function verifyRefs(paths: readonly string[], ctx: Context, options: VerifyRefsOptions = {}): Promise<VerifyRefsReport> {
  const { files, skipped } = collectFiles(paths.length > 0 ? paths : ['.'], ctx, {
    extensions: VERIFY_EXTENSIONS,
    exclude: options.exclude,
    skipIgnored: options.skipIgnored,
    confine: options.confine,
  });
  const base = options.aliases ?? new AliasResolver(ctx);
  const findings: RefFinding[] = [];
  let refsFound = 0;
  // One CPU-time budget for every pattern of the call.
  const budget = new PatternBudget();
  const driftRefs: (DriftRefInput | UnresolvedDriftRef)[] | undefined = options.drift || options.onRefs ? [] : undefined;
  const snippets = options.snippets === false ? undefined : emptySnippetReport();
  const comparable = snippets ? snippetTargets(ctx, base) : undefined;
  const bareRefs = new Set<string>();
  // The files refs point at, read once for the scan (drift and --fix read them again, fresh).
  const readCache = new ReadCache();
  // What a broken ref's message may quote, as extract() decides it, built once for the run.
  let quoting: Confinement | undefined;
  const quotable = (abs: string) => (quoting ??= options.confine ?? confinementOf(ctx, base)).allows(abs);
  const folderThere = folderLookup();
  const convs = files.map((f) => f.path).filter(isWorkflow);
  const snippetFiles = new SnippetFiles();
  const walkCache = new WalkCache();
  const workflows = planWorkflows(
    convs,
    (file) => loadConv(file, { readFile: options.readFile, display: (p) => shownPath(ctx.cwd, p) }),
    convs.length > 0 ? new WorkflowParts(ctx, { named: convs, readFile: options.readFile, confine: options.confine }) : undefined,
  );
  const scanned = new Set(files.map((f) => f.path));
  // Refs at a version are read from git before they are checked, each once (docs/refs.md#refs-at-a-version).
  const versions = new RunVersions(ctx, { mode: options.versionMode, reachableOnly: options.confine !== undefined });
  let drift: VerifyRefsReport['drift'];
  try {
    for (const [i, file] of files.entries()) {
      options.onProgress?.(i, files.length);
      const [findingsBefore, entriesBefore, driftBefore] = [findings.length, snippets?.entries.length ?? 0, driftRefs?.length ?? 0];
      const workflow = workflows.get(file.path);
      for (const w of [...(workflow?.through ?? []), ...(workflow ? [workflow] : [])]) {
        if (w.conv instanceof RefError) continue;
        await prepareSymbolRefs(convRefs(w.conv).map((r) => r.ref));
        await versions.prepare(workflowRefs(w.conv, ctx), workflowAliases(w.conv, ctx, base, (p) => p, []));
      }
      for (const w of workflow?.through ?? []) refsFound += checkWorkflow(w, ctx, base, findings, budget, driftRefs, options.confine, scanned, versions);
      const sinks = { findings, budget, driftRefs, snippets, comparable, bareRefs, confine: options.confine, quotable, folderThere, readCache, snippetFiles, walkCache, versions };
      let checked = workflow ? checkWorkflow(workflow, ctx, base, findings, budget, driftRefs, options.confine, scanned, versions) : checkDoc(file.path, file.root, ctx, base, sinks);
      while (typeof checked !== 'number') {
        // Symbol refs whose grammars are not loaded yet: load them (once per run) and check the doc
        // again. Refs at a version not read yet: read them, and the check goes on.
        if (Array.isArray(checked)) {
          await loadGrammars(checked);
          checked = checkDoc(file.path, file.root, ctx, base, sinks);
        } else {
          await versions.prepare(checked.atVersion, base);
          checked = checked.resume();
        }
      }
      refsFound += checked;
      detach(findings, findingsBefore);
      if (snippets) detach(snippets.entries, entriesBefore);
      if (driftRefs) detach(driftRefs, driftBefore);
    }
    if (driftRefs) options.onRefs?.(driftRefs);
    drift = options.drift && driftRefs ? await driftPass(driftRefs, options.drift, { ctx, aliases: base, budget, bareRefs, snippets, confine: options.confine, versions }) : undefined;
    if (options.suggestFixes) addSuggestions(findings, base, files.map((f) => f.root), ctx, await pinnedTrees(findings, base, versions));
  } finally {
    versions.close();
  }

  const grouped = groupNotCloned(findings, base, ctx, { allowMissing: options.allowMissing ?? false, exists: folderThere });
  return reportOf(grouped, { filesScanned: files.length, skipped, refsFound, strict: options.strict ?? false, snippets, drift });
}

/** The report of a run from its findings (not-cloned refs grouped) and what it scanned. */
function reportOf(
  grouped: readonly RefFinding[],
  scan: { filesScanned: number; skipped: SkippedFile[]; refsFound: number; strict: boolean; snippets: SnippetReport | undefined; drift: VerifyRefsReport['drift'] },
): VerifyRefsReport {
  const errors = grouped.filter((f) => f.severity === 'error');
  const warnings = grouped.filter((f) => f.severity === 'warning');
  // A pinned alias read at its pin is judged right: the warning that says so fails no --strict run.
  const failing = warnings.filter((w) => w.code !== READ_AT_PIN);
  // Findings without a ref (a malformed ALIAS, an unreadable file) fail the run but are not refs.
  const broken = new Set(errors.flatMap((f): { file: string; line: number | null; ref?: string }[] => f.refs ?? (f.ref ? [f] : [])).map((f) => `${f.file}\0${f.line}\0${f.ref}`)).size;
  return {
    filesScanned: scan.filesScanned,
    skipped: scan.skipped,
    refsFound: scan.refsFound,
    valid: scan.refsFound - broken,
    broken,
    errors,
    warnings,
    passed:
      errors.length === 0 && !(scan.strict && failing.length > 0) && driftPasses(scan.drift, scan.strict) && (scan.snippets?.stale ?? 0) === 0,
    ...(scan.snippets ? { snippets: scan.snippets } : {}),
    ...(scan.drift ? { drift: scan.drift } : {}),
  };
}

/**
 * Drift over every ref found (docs/drift.md), with --fix and --accept, and the cited snippets
 * judged at their refs' base (docs/snippets.md#with---drift), refreshed with --fix-snippets.
 */
async function driftPass(
  driftRefs: readonly (DriftRefInput | UnresolvedDriftRef)[],
  opts: NonNullable<VerifyRefsOptions['drift']>,
  run: { ctx: Context; aliases: AliasResolver; budget: PatternBudget; bareRefs: ReadonlySet<string>; snippets: SnippetReport | undefined; confine: Confinement | undefined; versions: RunVersions },
): Promise<NonNullable<VerifyRefsReport['drift']>> {
  const { snippets, versions } = run;
  const versionMode = versions.policy.mode;
  const found = await detectDrift(driftRefs, run.ctx, { since: opts.since, git: opts.git, blameEveryFile: opts.blameEveryFile, confine: run.confine, versionMode });
  keepBareRefs(found, run.bareRefs);
  const dryRun = opts.dryRun ?? false;
  const isKnownAlias = aliasOrUnsure(run.aliases);
  const fixes = opts.fix ? await fixDrift(found, run.ctx, { dryRun, isKnownAlias }) : [];
  const acceptances = opts.accept ? acceptDrift(found, run.ctx, { dryRun }) : undefined;
  const drift: NonNullable<VerifyRefsReport['drift']> = { ...found, dryRun, fixes, ...(acceptances ? { acceptances } : {}) };
  if (snippets) {
    // A snippet's lines as its (new) ref selects them now, looked up as the doc's refs are.
    const asRef = (s: SnippetEntry, ref: string) => (s.citation.bare && !ref.startsWith('@') ? '@' + ref : ref);
    // The new refs read the version the old ones did (docs/refs.md#what-each-command-reads).
    const newRefs = new Map<string, string[]>();
    for (const e of drift.entries) if (e.newRef) newRefs.set(e.file, [...(newRefs.get(e.file) ?? []), e.newRef]);
    await versions.prepare(snippets.entries.flatMap((s) => (newRefs.get(s.file) ?? []).map((ref) => ({ ref: asRef(s, ref), dirs: s.searchDirs }))), run.aliases);
    const select = (s: SnippetEntry, ref: string) => {
      const report = extract([asRef(s, ref)], run.ctx, { searchDirs: [...s.searchDirs], aliases: run.aliases, patternBudget: run.budget, versions: versions.prepared });
      return report.errors.length === 0 ? report.results : null;
    };
    judgeAtBase(snippets, drift);
    judgeFixedAgain(snippets, drift, select);
    if (opts.fixSnippets) {
      snippets.refresh = { ...refreshSnippets(snippets, drift, select, { dryRun, isKnownAlias }), dryRun };
    }
  }
  return drift;
}

/**
 * A snippet is compared only with files under the root or an alias target (docs/snippets.md#comparing):
 * a doc written by someone else (a pull request) must not learn, through a verdict or a `now at`
 * line, what a file elsewhere on the machine holds. Every alias counts here, `--alias` included:
 * the command line is the user's own.
 */
function snippetTargets(ctx: Context, aliases: AliasResolver): Confinement {
  const root = new Confinement(ctx.cwd);
  const targets = aliases.listReadable().entries.filter((e) => e.source === 'explicit' || !root.allows(e.origin)).map((e) => e.target);
  return new Confinement(ctx.cwd, targets, { snapshot: true });
}

/**
 * Whether a doc's `name:` may start an alias ref. A name that a malformed config file might define
 * counts: its ref is checked and gets that file's error (docs/reference.md#verify-refs), where
 * taking it for prose would pass over the broken file in silence.
 */
function aliasOrUnsure(aliases: AliasResolver): (name: string) => boolean {
  return (name) => {
    try {
      return aliases.lookup(name) !== undefined;
    } catch (err) {
      if (err instanceof ConfigError) return true;
      throw err;
    }
  };
}

/** Changed and deleted refs fail the check; moved and unknown ones only with --strict. */
function driftPasses(drift: DriftReport | undefined, strict: boolean): boolean {
  if (!drift) return true;
  const { changed, deleted, moved, unknown } = drift.counts;
  // A file --fix could not write (or would not, a link leading out) fails the run.
  const unwritten = (drift.notFixed ?? []).some((n) => n.kind === 'unwritable' || n.kind === 'outside');
  // A changed symbol ref still names the right code: a warning (docs/drift.md#symbol-refs).
  const byName = drift.entries.filter((e) => e.status === 'changed' && e.byName).length;
  return changed - byName + deleted === 0 && !unwritten && !(strict && moved + unknown + byName > 0);
}

/**
 * A ref as detectDrift needs it. A ref that does not parse, or whose alias no source defines (or
 * whose alias file is malformed), is already broken; its drift entry is `unknown` with the same
 * error's message, so that every ref found has an entry (docs/reference.md#drift-verdicts).
 */
function driftInput(file: string, line: number, text: string, ref: string, aliases: AliasResolver, searchDirs: readonly string[]): DriftRefInput | UnresolvedDriftRef {
  try {
    const spec = parseRef(ref);
    const alias = spec.alias ? aliases.lookup(spec.alias) : null;
    // resolve() throws the unknown-alias error the ref's finding has.
    if (spec.alias && !alias) aliases.resolve(spec.alias, ref);
    return { file, line, ref: text, spec, alias: alias ?? null, searchDirs: alias ? [alias.target] : searchDirs, stamp: scanStamp(file) };
  } catch (err) {
    if (err instanceof RefError || (err as { exitCode?: number }).exitCode !== undefined) return { file, line, ref: text, reason: (err as Error).message };
    throw err;
  }
}

/** A workflow's refs, as checkConvRefs looks them up. */
function workflowRefs(conv: Parameters<typeof convRefs>[0], ctx: Context): RefToCheck[] {
  return convRefs(conv).map((r) => ({ ref: r.ref, dirs: searchDirsFor(r.directive, ctx) }));
}

const isWorkflow = (file: string) => file.toLowerCase().endsWith('.conv');

/** The directives holding refs: a file's are checked only by the workflow that owns it. */
const REF_DIRECTIVES = new Set(['REFCAT', 'CONTEXT', 'CONTEXT-OPTIONAL']);

function checkWorkflow(
  workflow: PlannedWorkflow,
  ctx: Context,
  base: AliasResolver,
  findings: Finding[],
  budget: PatternBudget,
  driftRefs: (DriftRefInput | UnresolvedDriftRef)[] | undefined,
  confine: Confinement | undefined,
  scanned: ReadonlySet<string>,
  versions: RunVersions,
): number {
  const { file, conv: loaded, owns } = workflow;
  if (loaded instanceof RefError) {
    findings.push({ severity: 'error', code: loaded.code, message: loaded.message, details: [], file, line: null });
    return 0;
  }
  const display = (p: string) => shownPath(ctx.cwd, p);
  // Every ALIAS defines aliases for the whole workflow; a file's refs (and its bad ALIAS lines)
  // are checked only where the file is owned.
  const conv = { ...loaded, directives: loaded.directives.filter((d) => owns.has(d.file) || !REF_DIRECTIVES.has(d.name)) };
  const own: Finding[] = [];
  const aliases = workflowAliases(loaded, ctx, base, display, own);
  const count = checkConvRefs(conv, ctx, aliases, own, false, budget, confine, undefined, versions.prepared);
  // The workflow's VALIDATION-MODE relaxes its refs here as in validate: one verdict from both.
  relaxMissing(own, relaxedBy(loaded, false));
  findings.push(...own.filter((f) => owns.has(f.file)));
  const refused = new Set(own.filter((f) => f.code === 'outside_root').map((f) => `${f.file}\0${f.line}\0${f.ref}`));
  for (const r of driftRefs ? convRefs(conv) : []) {
    if (refused.has(`${r.directive.file}\0${r.directive.line}\0${r.ref}`)) continue;
    const input = driftInput(r.directive.file, r.directive.line, r.ref, r.ref, aliases, [path.dirname(r.directive.file), ctx.cwd]);
    if (!scanned.has(r.directive.file)) input.includedBy = file;
    driftRefs!.push(input);
  }
  return count;
}

/**
 * Copies what a doc added to the run's results (plain data), from `from` on. A string cut from a
 * doc's text shares it in V8 (a slice keeps its parent alive): kept as they are, a run's findings,
 * snippet verdicts and drift inputs held most docs it read, tens of MB for the garbage collector
 * to copy.
 */
function detach<T>(items: T[], from: number): void {
  for (let i = from; i < items.length; i++) items[i] = structuredClone(items[i]!);
}

/** What checking one document adds to: findings, drift inputs, snippet verdicts, one pattern budget. */
interface DocSinks {
  findings: Finding[];
  budget: PatternBudget;
  driftRefs?: (DriftRefInput | UnresolvedDriftRef)[];
  snippets?: SnippetReport;
  /** Bare citations (`file\0line\0ref`): drift's new refs for them are written bare too. */
  bareRefs: Set<string>;
  /** Refs may read only under these roots (refcat mcp). */
  confine?: Confinement;
  /** What a message may quote (ExtractOptions.quotable). */
  quotable: (abs: string) => boolean;
  /** Whether an alias folder exists, asked once a run. */
  folderThere: (folder: string) => boolean;
  /** Files a snippet may be compared with (docs/snippets.md#comparing). */
  comparable?: Confinement;
  readCache: ReadCache;
  /** Code files stale snippets are looked for in, read once per run. */
  snippetFiles: SnippetFiles;
  /** What glob refs' walks read of the tree, once per run. */
  walkCache: WalkCache;
  /** Refs at a version, read before the doc is checked. */
  versions: RunVersions;
}

/**
 * A doc's byte text (shared/byte-text.ts), or null with a finding: binary, not UTF-8 or too large
 * is not a doc, not scanned, with a warning (so --strict fails); anything else fails the run.
 */
function readDoc(file: string, ctx: Context, findings: Finding[]): string | null {
  try {
    return readTextFile(file, MAX_DOC_BYTES, { bytes: true });
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    const skip = err.code === 'too_large' || err.code === 'binary';
    const problem = err.code === 'binary' ? 'is binary or not UTF-8' : err.problem;
    const message = `${skip ? 'Not scanned' : 'Cannot read'}: ${shownPath(ctx.cwd, file)} ${problem}`;
    findings.push({ severity: skip ? 'warning' : 'error', code: skip ? err.code : 'unreadable', message, details: [], file, line: null });
    return null;
  }
}

/**
 * The refs checked, or what must be ready first (nothing was checked then): the grammars its
 * symbol refs need (check the doc again), or its refs that name a version, to be read from git
 * before `resume` checks them.
 */
function checkDoc(file: string, root: string, ctx: Context, aliases: AliasResolver, sinks: DocSinks): number | SymbolLanguage[] | { atVersion: RefToCheck[]; resume: () => number } {
  const { findings, budget, driftRefs, snippets, comparable, bareRefs, confine, readCache, snippetFiles, walkCache, versions, quotable, folderThere } = sinks;
  const text = readDoc(file, ctx, findings);
  if (text === null) return 0;
  const isKnownAlias = aliasOrUnsure(aliases);
  const dir = path.dirname(file);
  const searchDirs = [...new Set([dir, root, ctx.cwd])];
  // Bare paths (embedme's citations) are resolved from the root first, then the doc's folder.
  const bareDirs = [...new Set([root, dir, ctx.cwd])];
  const cited = /\.(md|markdown)$/i.test(file) ? docCitations(text, bareDirs, isKnownAlias, true) : null;
  const refs = findDocRefs(text, {
    bytes: true,
    markdown: /\.(md|markdown|txt)$/i.test(file),
    isKnownAlias,
    reportUnknownAlias: (name) => aliases.mayBeAlias(name),
    ...(cited ? { fenced: cited.fenced } : {}),
  });
  // A caption's ref is found by the scan too (it is outside the fence): it is checked once, as a citation.
  const captions = new Map<string, Citation>();
  const own: Citation[] = [];
  for (const c of cited?.citations ?? []) {
    if (c.form === 'caption' && !c.bare) captions.set(`${c.line}\0${c.text}`, c);
    else own.push(c);
  }
  const check = (line: number, text: string, ref: string, dirs: string[], citation?: Citation) => {
    if (!confine && text === ref && intoFolderNotCloned(ref, aliases, folderThere)) {
      // Its one possible finding, folded into the folder's by groupNotCloned(); nothing to read.
      findings.push({ severity: 'error', code: 'not_found', message: `Not cloned: ${ref}`, details: [], ref: text, file, line });
      if (citation?.bare) bareRefs.add(`${file}\0${line}\0${text}`);
      if (driftRefs) driftRefs.push(driftInput(file, line, text, ref, aliases, dirs));
      return;
    }
    const judging = citation !== undefined && snippets !== undefined;
    const report = extract([ref], ctx, { searchDirs: dirs, aliases, checkOnly: !judging, unjudgedOutside: true, quotable, patternBudget: budget, confine, readCache, walkCache, versions: versions.prepared });
    const at = (severity: Finding['severity']) => (d: (typeof report.errors)[number]) =>
      findings.push({ severity, code: d.code, message: d.message, details: d.details, ref: text, file, line });
    report.errors.forEach(at('error'));
    report.warnings.forEach(at('warning'));
    // A broken ref has no snippet verdict: its error says what is wrong.
    if (judging && report.errors.length === 0) {
      const away = report.results.find((r) => !comparable!.allows(r.path));
      if (away) {
        const message = `Snippet not compared: ${shownPath(ctx.cwd, away.path)} is outside the root ${ctx.cwd} and every alias target`;
        findings.push({ severity: 'warning', code: 'snippet_outside', message, details: [], ref: text, file, line });
      } else addSnippetEntry(snippets!, judgeSnippet(file, citation!, report.results, dirs, snippetFiles));
    }
    if (citation?.bare) bareRefs.add(`${file}\0${line}\0${text}`);
    const input = driftRefs && !report.errors.some((e) => e.code === 'outside_root') && driftInput(file, line, text, ref, aliases, dirs);
    if (input) driftRefs!.push(input);
  };
  const all = [
    ...refs.map((r) => ({ line: r.line, text: r.text, ref: r.ref, dirs: searchDirs, citation: captions.get(`${r.line}\0${r.text}`) })),
    ...own.map((c) => ({ line: c.line, text: c.text, ref: c.ref, dirs: c.bare ? bareDirs : searchDirs, citation: c })),
  ];
  if (own.length > 0) all.sort((a, b) => a.line - b.line);
  const missing = missingGrammars(all.map((r) => r.ref));
  if (missing.length > 0) return missing;
  const checkAll = () => {
    for (const r of all) check(r.line, r.text, r.ref, r.dirs, r.citation);
    return all.length;
  };
  return versions.pending(all) ? { atVersion: all, resume: checkAll } : checkAll();
}
