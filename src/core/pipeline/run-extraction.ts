import { prepareSymbolRefs } from '../symbols/prepare-symbol-refs.js';
import { prepareOutline } from '../symbols/prepare-outline.js';
import { planEngine } from '../symbols/plan-engine.js';
import { parseWorkerFile } from '../symbols/declaration-worker.js';
import { prestartTablesAhead } from '../symbols/tables-ahead.js';
import type { Context } from '../../shared/context.js';
import { visible } from '../../shared/visible.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import type { Diagnostic, ExitCode } from '../../shared/errors.js';
import { BatchRun, extractBatches, type Logged, outlineFilesOf, type RefBatch } from '../extract/extract-batches.js';
import { WalkCache } from '../walk/walk-cache.js';
import type { Extraction, ExtractOptions, ExtractReport } from '../extract/extract.js';
import { diagnosticJson, ExtractionWriter, type OutputFormat, renderCheck, renderers, type RenderOptions } from '../output/render-extraction.js';
import type { Counter } from '../tokens/counter.js';
import type { CounterPool } from '../tokens/counter-pool.js';
import type { Encoding } from '../tokens/tokenizer.js';
import type { Store } from '../paging/fd-store.js';
import { CappedOutput, type ExtractionSink, type StoredOutput } from './capped-output.js';
import { groupDigits } from '../../shared/group-digits.js';

export type { ExtractionSink, StoredOutput } from './capped-output.js';
export { TextSink } from './capped-output.js';

/**
 * One extraction, as the CLI, `refcat mcp` and the editor ask for it. Each front end maps its own
 * inputs onto this; runExtraction() does the rest (docs/reference.md#extraction-output).
 */
export interface ExtractionRequest {
  batches: RefBatch[];
  /** Errors found before extracting (a workflow's own), reported first. */
  problems?: Diagnostic[];
  /** `--from-workflow`: also the refs this `.conv` holds (an absolute path). */
  workflow?: string;
  extract: ExtractOptions;
  format: OutputFormat;
  render: RenderOptions;
  /**
   * `content` (the default) prints the refs; `check` prints one line per ref (`--validate-only`),
   * `files` the files they expand to (`--list-files`).
   */
  mode?: 'content' | 'check' | 'files';
  /**
   * V8's tuning for an outline (the CLI's run-time flags): run before its files are parsed, and
   * after the start of a worker started for them, since a worker starting under flags set at run
   * time compiles Node's own modules without their cache (docs/design/symbols.md#the-worker-started-with-the-list).
   */
  tuneEngine?: () => void;
  /**
   * `--tokens` (`count`), `--max-tokens`; `budgetName` is how messages name the budget; a server
   * passes `counters` to keep its counting workers between calls.
   */
  tokens?: {
    encoding: Encoding;
    count: boolean;
    maxTokens?: number;
    budgetName?: string;
    counters?: CounterPool;
    /**
     * JSON counts: `per-ref` (the default, `--json --tokens`: each ref's `tokens` and the markdown's
     * total, which needs every selection in memory) or `printed` (only the tokens of the JSON
     * written, counted as it streams, in bounded memory: `refcat mcp`).
     */
    json?: 'per-ref' | 'printed';
  };
  /** Called with each result before any of its text is written; throws to refuse the call. */
  admit?: (r: Extraction) => void;
  /**
   * An answer's most characters: past it, the sink gets the lines that fit and the whole output
   * is stored as an fd to page through (see `ExtractionOutcome.stored`).
   */
  cap?: { chars: number; store: () => Store };
}

export interface ExtractionOutcome {
  code: ExitCode;
  /**
   * Every diagnostic, in order: refs the budget left out, then each ref's warnings and errors. JSON
   * output carries them in its text too, so a front end prints them only beside other formats.
   */
  log: Logged[];
  /** `refcat: N refs, T tokens (o200k_base)\n` when tokens were counted. */
  summary: string | null;
  /** T of the summary (null: not counted). */
  tokens: number | null;
  /** Past the cap: where the whole output is, and how much of it the sink got. */
  stored: StoredOutput | null;
}

/**
 * The pipeline: refs, then extract, then budget, then render, then count, written to `sink`.
 * Output is streamed result by result (files and ranges read from disk as they are written), so
 * memory stays bounded whatever its size; only a budget and the JSON token counts need the
 * extraction in memory first. Counts are made by a worker as the output is written.
 */
export async function runExtraction(given: ExtractionRequest, sink: ExtractionSink, ctx: Context): Promise<ExtractionOutcome> {
  const { batches, problems } = await allBatches(given, ctx);
  const req = await withVersions(walkedOnce(given, ctx), batches, ctx);
  await prepareGrammars(req, batches, ctx);
  if (req.mode === 'check' || req.mode === 'files') return report(req, batches, problems, sink, ctx);
  const tokens = req.tokens;
  const inMemory = tokens !== undefined && (tokens.maxTokens !== undefined || (tokens.count && req.format === 'json' && tokens.json !== 'printed'));
  // A worker loads its tokenizer while the refs are extracted (a budget counts in this thread).
  const counting = tokens?.count && tokens.maxTokens === undefined;
  const counter = !counting ? undefined : tokens.counters ? tokens.counters.take(tokens.encoding) : (await import('../tokens/counter.js')).startCounter(tokens.encoding);
  try {
    const out = new CappedOutput(sink, req.cap, inMemory ? undefined : counter);
    let done: Done;
    try {
      done = inMemory ? await budgeted(req, batches, problems, out, ctx, counter) : await streamed(req, batches, problems, out, ctx);
    } catch (err) {
      out.abort();
      throw err;
    }
    const stored = await out.end();
    const total = done.tokens ?? (counter ? await (out.shownTotal ?? counter.total()) : null);
    const summary = tokens?.count && total !== null ? `refcat: ${done.refs} ${done.refs === 1 ? 'ref' : 'refs'}, ${groupDigits(total)} tokens (${tokens.encoding})\n` : null;
    return { code: done.code, log: done.log, summary, stored, tokens: tokens?.count ? total : null };
  } finally {
    counter?.close();
  }
}

interface Done {
  code: ExitCode;
  log: Logged[];
  refs: number;
  /** Counted by the budget (null: by the counter, or not at all). */
  tokens: number | null;
}

async function allBatches(req: ExtractionRequest, ctx: Context): Promise<{ batches: RefBatch[]; problems: Diagnostic[] }> {
  const problems = [...(req.problems ?? [])];
  if (req.workflow === undefined) return { batches: req.batches, problems };
  const { workflowRefs } = await import('../workflow/workflow-refs.js');
  const workflow = workflowRefs(req.workflow, ctx, req.extract.aliases ?? new AliasResolver(ctx));
  const batches = [...req.batches, ...workflow.batches];
  return { batches, problems: [...problems, ...workflow.errors] };
}

/**
 * The refs that read a version (a pinned alias, `alias@REV:`, `--at`) are read from git first, so
 * that the synchronous extraction takes their bytes (docs/refs.md#refs-at-a-version). A run whose
 * refs name none starts no git process and loads nothing more.
 */
async function withVersions(req: ExtractionRequest, batches: RefBatch[], ctx: Context): Promise<ExtractionRequest> {
  if (req.extract.versions || (!batches.some((b) => b.inputs.some((r) => r.includes(':'))) && req.extract.versionPolicy?.at === undefined)) return req;
  const { prepareVersions } = await import('../versions/prepare-versions.js');
  const aliases = req.extract.aliases ?? new AliasResolver(ctx);
  // A confined reader (refcat mcp) reads a revision only when a branch or tag reaches it.
  const policy = { ...req.extract.versionPolicy, reachableOnly: req.extract.versionPolicy?.reachableOnly ?? req.extract.confine !== undefined };
  const versions = await prepareVersions(batches, ctx, { aliases, base: req.extract.base, policy });
  return versions ? { ...req, extract: { ...req.extract, aliases, versions } } : req;
}

/**
 * An outline's globs are walked once, to plan its parse (prepareGrammars()) and to read it: the
 * request carries the walk cache and alias resolver both use.
 */
function walkedOnce(req: ExtractionRequest, ctx: Context): ExtractionRequest {
  if (!req.extract.outline || (req.extract.walkCache && req.extract.aliases)) return req;
  return { ...req, extract: { ...req.extract, walkCache: req.extract.walkCache ?? new WalkCache(), aliases: req.extract.aliases ?? new AliasResolver(ctx) } };
}

/**
 * Symbol refs and outlines are read synchronously: their grammars load first, and only theirs,
 * after the refs at a version are read (an outline's plan leaves their files out).
 */
async function prepareGrammars(req: ExtractionRequest, batches: RefBatch[], ctx: Context): Promise<void> {
  const inputs = batches.flatMap((b) => b.inputs);
  const outline = req.extract.outline && req.mode !== 'check' && req.mode !== 'files';
  if (outline) {
    let listed: string[] | undefined;
    const files = () => (listed ??= outlineFilesOf(batches, ctx, req.extract));
    const tune = req.tuneEngine ?? (() => undefined);
    // Before any grammar loads: how much code the outline parses decides how tree-sitter is
    // compiled, and a large one's worker starts now, while tree-sitter loads here.
    if (!(planEngine(files) && prestartTablesAhead(files(), parseWorkerFile(), tune))) tune();
  }
  await prepareSymbolRefs(inputs);
  if (outline) await prepareOutline(inputs);
}

/** Result by result: each is written before the next is read. */
async function streamed(req: ExtractionRequest, batches: RefBatch[], problems: Diagnostic[], out: CappedOutput, ctx: Context): Promise<Done> {
  const run = new BatchRun(problems);
  const writer = new ExtractionWriter(req.format, req.render);
  let refs = 0;
  await out.write(writer.begin());
  // Every sink copies what it keeps past a write (ExtractionSink): the bytes can be lent.
  for (const result of run.results(batches, ctx, { ...req.extract, onDisk: true, lendBytes: true })) {
    req.admit?.(result);
    refs++;
    for (const chunk of writer.add(result)) {
      const wait = out.write(chunk);
      if (wait) await wait;
    }
  }
  await out.write(writer.end(run.report));
  return { code: run.code(), log: run.log, refs, tokens: null };
}

/** `--max-tokens`, and the token counts of `--json --tokens`: the refs are extracted first. */
async function budgeted(
  req: ExtractionRequest,
  batches: RefBatch[],
  problems: Diagnostic[],
  out: CappedOutput,
  ctx: Context,
  counter: Counter | undefined,
): Promise<Done> {
  const tokens = req.tokens!;
  // Held in memory: under a cap, one selection may not be larger than this.
  const extract = req.cap ? { ...req.extract, maxSelectionChars: Math.min(req.extract.maxSelectionChars ?? IN_MEMORY_CHARS, IN_MEMORY_CHARS) } : req.extract;
  const { report, log, code } = extractBatches(batches, problems, ctx, extract);
  admitAll(req, report);
  const { budgetMarkdown, countedJson } = await import('../tokens/token-budget.js');
  if (req.format === 'json') {
    // The summary counts the JSON printed; its `total` is the markdown's.
    const { text, printed } = await countedJson(report, req.render, tokens.encoding, counter?.count, tokens.count);
    await out.write(text);
    return { code, log, refs: report.results.length, tokens: printed };
  }
  const budget = await budgetMarkdown(report, req.render, { encoding: tokens.encoding, maxTokens: tokens.maxTokens, budgetName: tokens.budgetName });
  if (budget.text) await out.write(budget.text);
  const leftOut = budget.leftOut.map((ref): Logged => ({ level: 'warning', diagnostic: { code: 'token_budget', message: `left out (token budget): ${ref}`, details: [], ref } }));
  return { code, log: [...leftOut, ...log], refs: budget.refs, tokens: budget.tokens };
}

/** Largest selection held in memory under a cap (a budget or JSON counts): 16 MiB. */
const IN_MEMORY_CHARS = 16 * 1024 * 1024;

function admitAll(req: ExtractionRequest, report: ExtractReport): void {
  if (req.admit) for (const r of report.results) req.admit(r);
}

/**
 * `--validate-only` (one `✓` line per ref, or the JSON report without content) and `--list-files`
 * (the files extraction would print, found by the same pass: a pattern after a glob lists the
 * files where it matches, and a folder or a binary file is the same error as when extracting).
 */
async function report(req: ExtractionRequest, batches: RefBatch[], problems: Diagnostic[], sink: ExtractionSink, ctx: Context): Promise<ExtractionOutcome> {
  const files = req.mode === 'files';
  const json = req.format === 'json';
  let text: string;
  let outcome: { report: ExtractReport; log: Logged[]; code: ExitCode };
  if (files) {
    // Only the names are kept: each file's extraction is dropped once its name is taken (a glob of
    // 10,000 files kept 10,000 for the garbage collector to copy).
    const run = new BatchRun(problems);
    const names = new Set<string>();
    for (const r of run.results(batches, ctx, { ...req.extract, checkOnly: true, probeWholeFiles: true })) {
      req.admit?.(r);
      names.add(req.render.absolute ? r.path : (r.fileSpec ?? r.displayPath));
    }
    outcome = { report: run.report, log: run.log, code: run.code() };
    const list = [...names];
    // One name a line: control characters (a newline in a name) are escaped, as in headers.
    // JSON carries its diagnostics, the walk's warnings (a symlink loop) too.
    const listing = { version: 1, files: list, errors: run.report.errors.map(diagnosticJson), warnings: run.report.warnings.map(diagnosticJson) };
    text = json ? JSON.stringify(listing, null, 2) + '\n' : list.map((f) => visible(f) + '\n').join('');
  } else {
    outcome = extractBatches(batches, problems, ctx, { ...req.extract, checkOnly: true });
    admitAll(req, outcome.report);
    text = json ? renderers.json(outcome.report, req.render) : renderCheck(outcome.report, req.render);
  }
  const { log, code } = outcome;
  if (text) await sink.write(text);
  await sink.end();
  return { code, log, summary: null, stored: null, tokens: null };
}
