/**
 * What one `verify refs` run holds from its first stage to its last (docs/design/verify-refs.md#the-pipeline):
 * made once by startRun, handed as a value to each stage, which adds its findings, drift inputs
 * and snippet verdicts to it.
 */
import type { Context } from '../../shared/context.js';
import { type Finding, RefError } from '../../shared/errors.js';
import { AliasResolver, aliasOrUnsure } from '../alias/resolve-aliases.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { Confinement } from '../safe-read/confinement.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { ReadCache } from '../extract/read-cache.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import { SnippetFiles } from '../snippets/snippet-files.js';
import { WalkCache } from '../walk/walk-cache.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { folderLookup } from '../alias/not-cloned.js';
import { driftAlias, type DriftRefInput, type UnresolvedDriftRef } from '../drift/drift-types.js';
import { scanStamp } from '../drift/fix-drift.js';
import { emptySnippetReport, type SnippetReport } from '../snippets/judge-snippets.js';
import { RunVersions } from '../versions/run-versions.js';
import type { VerifyRefsOptions } from './verify-types.js';

export interface VerifyRun {
  ctx: Context;
  /** Aliases of the command line and config files. */
  aliases: AliasResolver;
  findings: Finding[];
  /** One CPU-time budget for every pattern of the run. */
  budget: PatternBudget;
  /** Every ref found, as drift reads refs (with --drift, or for `onRefs`). */
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
  /** Whether a ref goes into an alias folder that is not there, by its text (readsNothing()). */
  notCloned: Map<string, boolean>;
  /** Files a snippet may be compared with (docs/snippets.md#comparing). */
  comparable?: Confinement;
  /** The files refs point at, read once for the scan (drift and --fix read them again, fresh). */
  readCache: ReadCache;
  /** The secrets of the files refs point at, found once for the scan, as the reads above (docs/refs.md#secrets). */
  secrets: SecretScanner;
  /** Code files stale snippets are looked for in, read once per run. */
  snippetFiles: SnippetFiles;
  /** What glob refs' walks read of the tree, once per run. */
  walkCache: WalkCache;
  /** Refs at a version, read before the refs that name them are checked (docs/refs.md#refs-at-a-version). */
  versions: RunVersions;
  /** The files the run scans, once collected: a workflow part outside them is checked through its includer. */
  scanned: Set<string>;
  /** Whether a doc's `name:` may start an alias ref (aliasOrUnsure). */
  isKnownAlias: (name: string) => boolean;
}

/** The run's state before its first file: every cache and budget made once. */
export function startRun(ctx: Context, options: VerifyRefsOptions): VerifyRun {
  const aliases = options.aliases ?? new AliasResolver(ctx);
  const snippets = options.snippets === false ? undefined : emptySnippetReport();
  // What a broken ref's message may quote, as extract() decides it, built once for the run.
  let quoting: Confinement | undefined;
  return {
    ctx,
    aliases,
    findings: [],
    budget: new PatternBudget(),
    driftRefs: options.drift || options.onRefs ? [] : undefined,
    snippets,
    bareRefs: new Set(),
    confine: options.confine,
    quotable: (abs) => (quoting ??= options.confine ?? confinementOf(ctx, aliases)).allows(abs),
    folderThere: folderLookup(),
    notCloned: new Map(),
    comparable: snippets ? snippetTargets(ctx, aliases) : undefined,
    readCache: new ReadCache(),
    // As extract() would make it for each ref: redact, `.secretlintignore` from the root; read once.
    secrets: new SecretScanner('redact', ctx.cwd),
    snippetFiles: new SnippetFiles(),
    walkCache: new WalkCache(),
    versions: new RunVersions(ctx, { mode: options.versionMode, reachableOnly: options.confine !== undefined }),
    scanned: new Set(),
    isKnownAlias: aliasOrUnsure(aliases),
  };
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
 * A ref as detectDrift needs it. A ref that does not parse, or whose alias no source defines (or
 * whose alias file is malformed), is already broken; its drift entry is `unknown` with the same
 * error's message, so that every ref found has an entry (docs/reference.md#drift-verdicts).
 */
export function driftInput(file: string, line: number, text: string, ref: string, aliases: AliasResolver, searchDirs: readonly string[]): DriftRefInput | UnresolvedDriftRef {
  try {
    const spec = parseRef(ref);
    const alias = driftAlias(spec, aliases);
    // resolve() throws the unknown-alias error the ref's finding has.
    if (alias === undefined) aliases.resolve(spec.alias!, ref);
    return { file, line, ref: text, spec, alias: alias ?? null, searchDirs: alias ? [alias.target] : searchDirs, stamp: scanStamp(file) };
  } catch (err) {
    if (err instanceof RefError || (err as { exitCode?: number }).exitCode !== undefined) return { file, line, ref: text, reason: (err as Error).message };
    throw err;
  }
}

/** How far a run's results reached before a file was checked (detachSince). */
export function resultsMark(run: VerifyRun): [number, number, number] {
  return [run.findings.length, run.snippets?.entries.length ?? 0, run.driftRefs?.length ?? 0];
}

/**
 * Copies what a file added to the run's results (plain data), from `mark` on. A string cut from a
 * doc's text shares it in V8 (a slice keeps its parent alive): kept as they are, a run's findings,
 * snippet verdicts and drift inputs held most docs it read, tens of MB for the garbage collector
 * to copy.
 */
export function detachSince(run: VerifyRun, [findings, entries, driftRefs]: [number, number, number]): void {
  detach(run.findings, findings);
  if (run.snippets) detach(run.snippets.entries, entries);
  if (run.driftRefs) detach(run.driftRefs, driftRefs);
}

function detach<T>(items: T[], from: number): void {
  for (let i = from; i < items.length; i++) items[i] = structuredClone(items[i]!);
}
