import fs from 'node:fs';
import path from 'node:path';
import type { ExtractOptions } from '../../core/extract/extract.js';
import { PatternBudget } from '../../core/extract/pattern-search.js';
import { diagnosticJson, ExtractionWriter, type OutputChunk, type OutputFormat, type RenderOptions, renderCheck, renderers } from '../../core/output/render-extraction.js';
import { type Diagnostic, type ExitCode, UsageError } from '../../shared/errors.js';
import { type IO, printLog, StdoutWriter } from '../io.js';
import { resolverFromFlags } from '../alias-flags.js';
import { BatchRun, extractBatches, type RefBatch } from '../../core/extract/extract-batches.js';
import type { Encoding } from '../../core/tokens/tokenizer.js';
import type { Counter } from '../../core/tokens/counter.js';

export interface ExtractCliOptions {
  json?: boolean;
  spec?: boolean;
  quiet?: boolean;
  format?: OutputFormat;
  lineNumbers: boolean;
  cwd: boolean;
  absolute?: boolean;
  relativeTo?: string;
  attribution: boolean;
  context?: number;
  alias?: string[];
  validateOnly?: boolean;
  listFiles?: boolean;
  fromWorkflow?: string;
  ignore: boolean;
  tokens?: boolean;
  encoding?: Encoding;
  maxTokens?: number;
}

/** `refcat [REFS...]`: map flags to options, extract, render, return the exit code. */
export async function runExtract(refs: string[], opts: ExtractCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const format = outputFormat(opts);
  checkModes(opts, format);
  const base = opts.relativeTo ? checkDir(path.resolve(ctx.cwd, opts.relativeTo), '--relative-to') : ctx.cwd;
  const aliases = resolverFromFlags(opts.alias, ctx);

  const batches: RefBatch[] = [{ inputs: refs }];
  const problems: Diagnostic[] = [];
  if (opts.fromWorkflow) {
    const { workflowRefs } = await import('../../core/workflow/workflow-refs.js');
    const workflow = workflowRefs(path.resolve(ctx.cwd, opts.fromWorkflow), ctx, aliases);
    // One batch per REFCAT line: a workflow may hold hundreds of thousands, too many to spread as arguments.
    for (const b of workflow.batches) batches.push(b);
    for (const e of workflow.errors) problems.push(e);
  } else if (refs.length === 0) {
    throw new UsageError("No refs given (try 'refcat @path/to/file#L1-L20', or 'refcat --help')");
  }
  // One CPU-time budget for every pattern of the call: all refs, files and workflow batches.
  const extractOpts = { base, aliases, context: opts.context ?? 0, noIgnore: !opts.ignore, patternBudget: new PatternBudget() };

  if (opts.listFiles) return listFiles(batches, io, extractOpts, problems, { json: format === 'json', absolute: opts.absolute ?? false });

  const render = renderOptions(opts);
  if (opts.validateOnly) return checkOnly(batches, problems, extractOpts, format, render, io);
  if (opts.maxTokens === undefined && !(opts.tokens && format === 'json')) {
    // A count of streamed output is made by a worker as the output is written.
    const counter = opts.tokens ? (await import('../../core/tokens/counter.js')).startCounter(opts.encoding ?? 'o200k_base') : undefined;
    try {
      return await streamExtraction(batches, problems, extractOpts, format, render, io, counter && { counter, encoding: opts.encoding ?? 'o200k_base' });
    } finally {
      counter?.close();
    }
  }

  // A budget, or --tokens with --json (a count per ref): the output is built in memory. The JSON
  // counts are made by a worker that loads its tokenizer while the refs are extracted.
  const counter = opts.tokens && opts.maxTokens === undefined ? (await import('../../core/tokens/counter.js')).startCounter(opts.encoding ?? 'o200k_base') : undefined;
  try {
    const { report, log, code } = extractBatches(batches, problems, ctx, extractOpts);
    const { runWithTokens } = await import('../token-flags.js');
    return await runWithTokens(report, log, code, format, render, opts, io, counter);
  } finally {
    counter?.close();
  }
}

/** `--validate-only`: one line per ref checked (or the JSON report without content). */
async function checkOnly(batches: RefBatch[], problems: Diagnostic[], options: ExtractOptions, format: OutputFormat, render: RenderOptions, io: IO): Promise<ExitCode> {
  const { report, log, code } = extractBatches(batches, problems, io.ctx, { ...options, checkOnly: true });
  if (format === 'json') {
    io.stdout(renderers.json(report, render));
    return code;
  }
  const out = renderCheck(report, render);
  if (out) io.stdout(out);
  await printLog(io, log);
  return code;
}

/**
 * Extract and write at once, result by result, with whole files and ranges streamed from disk:
 * memory stays bounded whatever the size of the output (docs/reference.md#streaming-and-memory).
 * Diagnostics go to stderr at the end, in the order of the refs, as in every other mode.
 */
async function streamExtraction(
  batches: RefBatch[],
  problems: Diagnostic[],
  options: ExtractOptions,
  format: OutputFormat,
  render: RenderOptions,
  io: IO,
  tokens?: { counter: Counter; encoding: Encoding },
): Promise<ExitCode> {
  const run = new BatchRun(problems);
  const writer = new ExtractionWriter(format, render);
  const out = new StdoutWriter(io);
  const write = async (chunk: OutputChunk) => {
    tokens?.counter.add(chunk);
    await out.write(chunk);
  };
  let refs = 0;
  await write(writer.begin());
  for (const result of run.results(batches, io.ctx, { ...options, onDisk: true })) {
    refs++;
    for (const chunk of writer.add(result)) await write(chunk);
  }
  await write(writer.end(run.report));
  await out.end();
  if (format !== 'json') await printLog(io, run.log);
  if (tokens) {
    const total = await tokens.counter.total();
    io.stderr(`refcat: ${refs} ${refs === 1 ? 'ref' : 'refs'}, ${total.toLocaleString('en-US')} tokens (${tokens.encoding})\n`);
  }
  return run.code();
}

function renderOptions(opts: ExtractCliOptions): RenderOptions {
  return {
    lineNumbers: opts.lineNumbers,
    showCwd: opts.cwd,
    absolute: opts.absolute ?? false,
    attribution: opts.attribution,
    content: !opts.validateOnly,
  };
}

/**
 * `--validate-only` and `--list-files` print reports of their own: they combine with `--json` (the
 * report as JSON) and `--absolute`, not with the other output formats, which they would drop.
 */
function checkModes(opts: ExtractCliOptions, format: OutputFormat): void {
  const modes = [opts.validateOnly && '--validate-only', opts.listFiles && '--list-files'].filter(Boolean);
  if (modes.length > 1) throw new UsageError('Use only one of --validate-only and --list-files');
  if (modes.length === 1 && format !== 'markdown' && format !== 'json') {
    throw new UsageError(`${modes[0]} prints its own report: it combines with --json, not with --format ${format}`);
  }
  const counting = [opts.tokens && '--tokens', opts.maxTokens !== undefined && '--max-tokens', opts.encoding && '--encoding'].filter(Boolean);
  if (modes.length === 1 && counting.length > 0) throw new UsageError(`${modes[0]} prints no content: it does not combine with ${counting[0]}`);
  if (opts.encoding && !opts.tokens && opts.maxTokens === undefined) {
    throw new UsageError('--encoding chooses the tokenizer of --tokens and --max-tokens: give one of them');
  }
  if (opts.maxTokens !== undefined && format !== 'markdown') {
    throw new UsageError(`--max-tokens budgets the markdown output: it does not combine with --format ${format}`);
  }
}

function outputFormat(opts: ExtractCliOptions): OutputFormat {
  const asked = new Set<OutputFormat>();
  if (opts.format) asked.add(opts.format);
  if (opts.json) asked.add('json');
  if (opts.quiet) asked.add('raw');
  // `--json --spec` is JSON (which carries a spec per ref), as in the REFCAT design.
  if (opts.spec && !asked.has('json')) asked.add('spec');
  if (asked.size > 1) {
    throw new UsageError(`Conflicting output formats: ${[...asked].join(' and ')} (pick one)`);
  }
  return asked.values().next().value ?? 'markdown';
}

function checkDir(dir: string, flag: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    throw new UsageError(`${flag}: no such folder: ${dir}`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${flag}: not a folder: ${dir}`);
  return dir;
}

/**
 * `--list-files`: the files extraction would print, found the same way (a `--validate-only` pass):
 * a pattern after a glob lists the files where it matches, and a folder, a binary file or a
 * pattern matching nothing is the same error as when extracting.
 */
async function listFiles(
  batches: RefBatch[],
  io: IO,
  options: ExtractOptions,
  problems: Diagnostic[],
  show: { json: boolean; absolute: boolean },
): Promise<ExitCode> {
  const { report, log, code } = extractBatches(batches, problems, io.ctx, { ...options, checkOnly: true, probeWholeFiles: true });
  const files = [...new Set(report.results.map((r) => (show.absolute ? r.path : r.displayPath)))];
  if (show.json) {
    io.stdout(JSON.stringify({ version: 1, files, errors: report.errors.map(diagnosticJson) }, null, 2) + '\n');
    return code;
  }
  if (files.length > 0) io.stdout(files.map((f) => f + '\n').join(''));
  await printLog(io, log);
  return code;
}
