import type { AliasResolver } from '../alias/resolve-aliases.js';
import type { Context } from '../../shared/context.js';
import type { Diagnostic, ExitCode } from '../../shared/errors.js';
import { extract, type ExtractOptions, type ExtractReport } from './extract.js';

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
  const report: ExtractReport = { results: [], errors: [...problems], warnings: [] };
  const log: Logged[] = problems.map((diagnostic) => ({ level: 'error', diagnostic }));
  // Exit 2 only for what the command line got wrong: a ref a workflow file holds is data, and a
  // ref there that cannot be parsed fails the call with 1, as `refcat validate` does.
  const fromArgs: Diagnostic[] = [];
  for (const batch of batches) {
    const batchOpts = batchOptions(batch, options);
    for (const input of batch.inputs) {
      const r = extract([input], ctx, batchOpts);
      report.results.push(...r.results);
      const warnings = r.warnings.map((d) => located(d, batch.at));
      const errors: Diagnostic[] = [];
      for (const found of r.errors) {
        const e = located(found, batch.at);
        if (batch.at === undefined) fromArgs.push(e);
        if (batch.optional && NO_MATCH.has(e.code)) {
          warnings.push({ ...e, code: 'context_no_match', message: `CONTEXT-OPTIONAL pattern matches nothing: ${e.ref}` });
        } else {
          errors.push(e);
        }
      }
      report.warnings.push(...warnings);
      report.errors.push(...errors);
      log.push(...warnings.map((diagnostic) => ({ level: 'warning' as const, diagnostic })));
      log.push(...errors.map((diagnostic) => ({ level: 'error' as const, diagnostic })));
    }
  }
  const code: ExitCode = report.errors.length === 0 ? 0 : fromArgs.some((e) => e.exitCode === 2) ? 2 : 1;
  return { report, log, code };
}

/** A diagnostic about a ref a workflow holds says where: `at <file>:<line>`, as validate does. */
function located(d: Diagnostic, at: string | undefined): Diagnostic {
  return at === undefined ? d : { ...d, details: [...d.details, `at ${at}`] };
}

const NO_MATCH = new Set(['not_found', 'glob_no_match']);

function batchOptions(batch: RefBatch, options: ExtractOptions): ExtractOptions {
  return { ...options, searchDirs: batch.searchDirs ?? options.searchDirs, aliases: batch.aliases ?? options.aliases };
}

