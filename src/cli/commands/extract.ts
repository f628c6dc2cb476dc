import fs from 'node:fs';
import path from 'node:path';
import { PatternBudget } from '../../core/regex/pattern-search.js';
import type { OutputFormat, RenderOptions } from '../../core/output/render-extraction.js';
import { runExtraction } from '../../core/pipeline/run-extraction.js';
import { SecretScanner } from '../../core/secrets/secret-scan.js';
import { declarationWalkerName } from '../../core/symbols/read-declarations.js';
import type { SecretsMode } from '../../core/secrets/secrets-mode.js';
import type { Encoding } from '../../core/tokens/tokenizer.js';
import { type ExitCode, RefError, UsageError } from '../../shared/errors.js';
import { resolverFromFlags } from '../alias-flags.js';
import { versionModeOf } from '../options.js';
import { chosenFormat } from '../format-flags.js';
import { type IO, printLog, StdoutWriter } from '../io.js';
import { optimizeOnlyLongRunningCode } from '../tiering.js';

export interface ExtractCliOptions {
  json?: boolean;
  spec?: boolean;
  quiet?: boolean;
  cite?: boolean;
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
  outline?: boolean;
  at?: string;
  worktree?: boolean;
  pinned?: boolean;
  secrets?: SecretsMode;
}

/** `refcat [REFS...]`: map flags onto an extraction request, run it to stdout, return the exit code. */
export async function runExtract(refs: string[], opts: ExtractCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const format = outputFormat(opts);
  checkModes(opts, format);
  const base = opts.relativeTo ? checkDir(path.resolve(ctx.cwd, opts.relativeTo), '--relative-to') : ctx.cwd;
  const aliases = resolverFromFlags(opts.alias, ctx);
  if (!opts.fromWorkflow && refs.length === 0) throw new UsageError("No refs given (try 'refcat @path/to/file#L1-L20', or 'refcat --help')");
  const counting = opts.tokens || opts.maxTokens !== undefined;
  const outcome = await fromWorkflowErrors(opts, () => runExtraction(
    {
      batches: [{ inputs: refs }],
      workflow: opts.fromWorkflow && path.resolve(ctx.cwd, opts.fromWorkflow),
      // One CPU-time budget for every pattern of the call: all refs, files and workflow batches.
      extract: { base, aliases, context: opts.context ?? 0, noIgnore: !opts.ignore, patternBudget: new PatternBudget(), outline: opts.outline, versionPolicy: versionPolicy(opts), secrets: new SecretScanner(secretsMode(opts, format), ctx.cwd) },
      format,
      render: renderOptions(opts),
      mode: opts.validateOnly ? 'check' : opts.listFiles ? 'files' : 'content',
      tokens: counting ? { encoding: opts.encoding ?? 'o200k_base', count: opts.tokens === true, maxTokens: opts.maxTokens } : undefined,
      // An outline runs the same few functions over every file's tree (docs/design/symbols.md#the-runtime-optimized),
      // and its declaration walker is not worth optimizing (#the-walker-left-unoptimized).
      tuneEngine: () => optimizeOnlyLongRunningCode({ never: declarationWalkerName() }),
    },
    new StdoutWriter(io),
    ctx,
  ));
  // JSON carries its diagnostics: stderr gets only the --tokens summary.
  if (format !== 'json') await printLog(io, outcome.log);
  if (outcome.summary) io.stderr(outcome.summary);
  return outcome.code;
}

/** `--worktree`, `--pinned`, `--at` (docs/refs.md#refs-at-a-version). */
/**
 * `--spec`, `--validate-only` and `--list-files` print no content, so a secret is nothing they
 * could leak: `withhold` and `fail` do not leave a file out or fail the run there, and a pattern
 * still matches the redacted text, as in the formats that print it (docs/refs.md#secrets).
 */
function secretsMode(opts: ExtractCliOptions, format: OutputFormat): SecretsMode {
  const mode = opts.secrets ?? 'redact';
  const printsNoContent = format === 'spec' || opts.validateOnly === true || opts.listFiles === true;
  return printsNoContent && mode !== 'allow' ? 'redact' : mode;
}

function versionPolicy(opts: ExtractCliOptions): { mode: 'auto' | 'worktree' | 'pinned'; at?: string } {
  const mode = versionModeOf(opts);
  return opts.at === undefined ? { mode } : { mode, at: opts.at };
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
  if (opts.outline && modes.length === 1) throw new UsageError(`${modes[0]} prints its own report: it does not combine with --outline`);
  // A spec names lines and a citation quotes them verbatim: an outline is neither.
  if (opts.outline && (format === 'spec' || format === 'cite')) throw new UsageError(`--outline prints an outline: it does not combine with --format ${format}`);
  if (opts.maxTokens !== undefined && format !== 'markdown') {
    throw new UsageError(`--max-tokens budgets the markdown output: it does not combine with --format ${format}`);
  }
}

function outputFormat(opts: ExtractCliOptions): OutputFormat {
  // `--json --spec` is JSON (which carries a spec per ref), as in the REFCAT design.
  const json = opts.json || opts.format === 'json';
  return chosenFormat<OutputFormat>([opts.json && 'json', opts.format, opts.quiet && 'raw', opts.cite && 'cite', opts.spec && !json && 'spec'], 'markdown');
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
 * A workflow that cannot be read is the only thing an extraction throws for (a bad ref is a
 * diagnostic): name the flag it came from.
 */
async function fromWorkflowErrors<T>(opts: ExtractCliOptions, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (opts.fromWorkflow && err instanceof RefError) throw new UsageError(`--from-workflow: ${err.message}`);
    throw err;
  }
}
