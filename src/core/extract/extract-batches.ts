import type { AliasResolver } from '../alias/resolve-aliases.js';
import type { Context } from '../../shared/context.js';
import type { Diagnostic, ExitCode } from '../../shared/errors.js';
import { type Extraction, type ExtractOptions, type ExtractReport, type ExtractStep, extractSteps, outlineFiles, type StreamOptions } from './extract.js';
import { parsesOffThread } from '../symbols/declaration-table.js';
import { parseWorkerFile } from '../symbols/declaration-worker.js';
import { planTablesAhead } from '../symbols/tables-ahead.js';
import { WalkCache } from '../walk/walk-cache.js';

/** Refs extracted together, with where they are looked up. */
export interface RefBatch {
  inputs: string[];
  /** Folders relative refs are looked up in (default: the extraction's base). */
  searchDirs?: string[];
  aliases?: AliasResolver;
  /** CONTEXT-OPTIONAL: a pattern that matches nothing is a warning, not an error. */
  optional?: boolean;
  /** `<file>:<line>` of the workflow directive the refs come from (absent for command-line refs). */
  at?: string;
}

/** A diagnostic with its level, in the order the refs were given (as stderr shows them). */
export interface Logged {
  level: 'error' | 'warning';
  diagnostic: Diagnostic;
}

/**
 * Extract every batch with its own lookup folders and aliases, as one report (after `problems`,
 * the workflow's own errors), the diagnostics in the order of the refs (each ref's warnings before
 * its errors) as stderr shows them, and the exit code.
 */
export function extractBatches(
  batches: RefBatch[],
  problems: Diagnostic[],
  ctx: Context,
  options: ExtractOptions,
): { report: ExtractReport; log: Logged[]; code: ExitCode } {
  const run = new BatchRun(problems);
  for (const result of run.results(batches, ctx, options)) run.report.results.push(result);
  return { report: run.report, log: run.log, code: run.code() };
}

/**
 * extractBatches() for output written while the refs are read: `results()` hands out each result
 * as it is extracted (not kept in `report.results`; with `onDisk`, valid until the next one is
 * taken), and collects the diagnostics in `report` and `log` as extractBatches() does.
 */
export class BatchRun {
  readonly report: ExtractReport;
  readonly log: Logged[];
  /** Exit 2 only for what the command line got wrong (see code()). */
  private readonly fromArgs: Diagnostic[] = [];

  constructor(problems: Diagnostic[]) {
    this.report = { results: [], errors: [...problems], warnings: [] };
    this.log = problems.map((diagnostic) => ({ level: 'error', diagnostic }));
  }

  *results(batches: RefBatch[], ctx: Context, given: ExtractOptions & StreamOptions): Generator<Extraction> {
    // Every batch's globs (a workflow's CONTEXT lines) read each folder once.
    const options = given.walkCache ? given : { ...given, walkCache: new WalkCache() };
    // An outline's files may be parsed on two cores (tables-ahead.ts): the list, read first.
    const ahead = options.outline && !options.checkOnly && !parsesOffThread();
    if (ahead) planTablesAhead(outlineFilesOf(batches, ctx, options), parseWorkerFile());
    // One generator from the steps to the caller: each level costs every file of a glob a resume.
    try {
      for (const batch of batches) {
        const batchOpts = batchOptions(batch, options);
        for (const input of batch.inputs) {
          // Each ref's diagnostics are logged together once the ref is done: warnings, then errors.
          const said: Said = { warnings: [], errors: [] };
          for (const step of extractSteps([input], ctx, batchOpts)) {
            if (step.warnings.length > 0 || step.errors.length > 0) this.note(step, batch, said);
            if (step.result) yield step.result;
          }
          if (said.warnings.length > 0 || said.errors.length > 0) this.logRef(said);
        }
      }
    } finally {
      if (ahead) planTablesAhead(null);
    }
  }

  /** A step's diagnostics, located in its batch, into what its ref said. */
  private note(step: ExtractStep, batch: RefBatch, said: Said): void {
    for (const d of step.warnings) said.warnings.push(located(d, batch.at));
    for (const found of step.errors) {
      const e = located(found, batch.at);
      if (batch.at === undefined) this.fromArgs.push(e);
      if (batch.optional && NO_MATCH.has(e.code)) {
        said.warnings.push({ ...e, code: 'context_no_match', message: `CONTEXT-OPTIONAL pattern matches nothing: ${e.ref}` });
      } else if (batch.optional && SELECTS_NOTHING.has(e.code)) {
        // A file it names, in which its selector finds nothing: optional too.
        said.warnings.push({ ...e, code: 'context_no_match', message: `CONTEXT-OPTIONAL selects nothing: ${e.message}` });
      } else {
        said.errors.push(e);
      }
    }
  }

  /** A ref's diagnostics, once it is done: in the report, and in the log, warnings before errors. */
  private logRef(said: Said): void {
    this.report.warnings.push(...said.warnings);
    this.report.errors.push(...said.errors);
    this.log.push(...said.warnings.map((diagnostic) => ({ level: 'warning' as const, diagnostic })));
    this.log.push(...said.errors.map((diagnostic) => ({ level: 'error' as const, diagnostic })));
  }

  /**
   * 0 without errors; 2 when a ref of the command line could not be parsed; else 1. A ref a
   * workflow file holds is data: one that cannot be parsed fails the call with 1, as
   * `refcat validate` does.
   */
  code(): ExitCode {
    if (this.report.errors.length === 0) return 0;
    return this.fromArgs.some((e) => e.exitCode === 2) ? 2 : 1;
  }
}

/** What one ref said, warnings and errors. */
interface Said {
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** A diagnostic about a ref a workflow holds says where: `at <file>:<line>`, as validate does. */
function located(d: Diagnostic, at: string | undefined): Diagnostic {
  return at === undefined ? d : { ...d, details: [...d.details, `at ${at}`] };
}

const NO_MATCH = new Set(['not_found', 'glob_no_match']);
/** A CONTEXT-OPTIONAL ref's selector that finds nothing in its file (validate says it as --from-workflow does). */
export const SELECTS_NOTHING = new Set(['pattern_not_found', 'symbol_not_found', 'not_a_declaration']);

/** The files an outline of `batches` parses, in the order it reads them (outlineFiles(), through `options.walkCache`). */
export function outlineFilesOf(batches: readonly RefBatch[], ctx: Context, options: ExtractOptions): string[] {
  return batches.flatMap((b) => outlineFiles(b.inputs, ctx, batchOptions(b, options)));
}

function batchOptions(batch: RefBatch, options: ExtractOptions): ExtractOptions {
  return { ...options, searchDirs: batch.searchDirs ?? options.searchDirs, aliases: batch.aliases ?? options.aliases };
}

