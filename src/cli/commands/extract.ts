import fs from 'node:fs';
import path from 'node:path';
import { AliasResolver } from '../../core/alias/resolve.js';
import { extract, resolveFiles } from '../../core/extract/extract.js';
import { type OutputFormat, type RenderOptions, renderCheck, renderers } from '../../core/output/render.js';
import { parseRef } from '../../core/spec/parse.js';
import type { RefSpec } from '../../core/spec/types.js';
import { type Diagnostic, type ExitCode, isRefcatError, toDiagnostic, UsageError } from '../../shared/errors.js';
import { exitCodeFor, type IO, printDiagnostics } from '../io.js';
import { splitAlias } from '../options.js';

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
}

/** `refcat [REFS...]`: map flags to options, extract, render, return the exit code. */
export async function runExtract(refs: string[], opts: ExtractCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const format = outputFormat(opts);
  const base = opts.relativeTo ? checkDir(path.resolve(ctx.cwd, opts.relativeTo), '--relative-to') : ctx.cwd;
  const aliases = new AliasResolver(ctx, {
    explicit: (opts.alias ?? []).map((pair) => ({ ...splitAlias(pair), base: ctx.cwd, origin: '--alias' })),
  });

  const inputs: (string | RefSpec)[] = [...refs];
  if (opts.fromWorkflow) {
    const { workflowRefs } = await import('./workflow-refs.js');
    inputs.push(...workflowRefs(path.resolve(ctx.cwd, opts.fromWorkflow), ctx, aliases));
  }
  if (inputs.length === 0) {
    throw new UsageError("No refs given (try 'refcat @path/to/file#L1-L20', or 'refcat --help')");
  }
  const extractOpts = { base, aliases, context: opts.context ?? 0, noIgnore: !opts.ignore };

  if (opts.listFiles) return listFiles(inputs, io, extractOpts);

  const report = extract(inputs, ctx, { ...extractOpts, checkOnly: opts.validateOnly ?? false });
  const render: RenderOptions = {
    lineNumbers: opts.lineNumbers,
    showCwd: opts.cwd,
    absolute: opts.absolute ?? false,
    attribution: opts.attribution,
    content: !opts.validateOnly,
  };
  const code = exitCodeFor(report.errors);
  if (format === 'json') {
    io.stdout(renderers.json(report, render));
    return code;
  }
  const out = opts.validateOnly ? renderCheck(report, render) : renderers[format](report, render);
  if (out) io.stdout(out);
  await printDiagnostics(io, report.errors, report.warnings);
  return code;
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

async function listFiles(
  inputs: (string | RefSpec)[],
  io: IO,
  options: Parameters<typeof resolveFiles>[2],
): Promise<ExitCode> {
  const errors: Diagnostic[] = [];
  const seen = new Set<string>();
  let out = '';
  for (const input of inputs) {
    try {
      const spec = typeof input === 'string' ? parseRef(input) : input;
      for (const file of resolveFiles(spec, io.ctx, options)) {
        if (seen.has(file.path)) continue;
        seen.add(file.path);
        out += file.displayPath + '\n';
      }
    } catch (err) {
      if (!isRefcatError(err) || err.code === 'invalid_config') throw err;
      errors.push({ ...toDiagnostic(err), ref: err.ref ?? (typeof input === 'string' ? input : input.raw) });
    }
  }
  if (out) io.stdout(out);
  await printDiagnostics(io, errors);
  return exitCodeFor(errors);
}
