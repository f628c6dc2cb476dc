import { PatternBudget } from '../../core/regex/pattern-search.js';
import { validateWorkflows } from '../../core/workflow/validate-conv.js';
import { collectFiles } from '../../core/walk/collect-files.js';
import { validateRenderers } from '../../core/output/render-validate.js';
import { type ExitCode, UsageError } from '../../shared/errors.js';
import { type CheckCliOptions, checkFormat, renderOptions, writeChunks } from '../check.js';
import { resolverFromFlags } from '../alias-flags.js';
import { versionModeOf } from '../options.js';
import type { IO } from '../io.js';

export interface ValidateCliOptions extends CheckCliOptions {
  allowMissing?: boolean;
}

/** `refcat validate FILES...`: collect the workflows, validate each, render, exit 1 if any is invalid. */
export async function runValidate(inputs: string[], opts: ValidateCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const format = checkFormat(opts);
  const { files, skipped } = collectFiles(inputs, ctx, { extensions: ['.conv'], exclude: opts.exclude, namedNeedExtension: true, skipIgnored: opts.skipIgnored ?? false });
  if (files.length === 0 && !(opts.skipIgnored && skipped.length > 0)) {
    const why = skipped.length > 0 ? ` (${skipped.length} skipped by ignore rules)` : '';
    throw new UsageError(`No .conv files found in ${inputs.join(', ')}${why}`);
  }
  const aliases = resolverFromFlags(opts.alias, io.ctx);
  // One CPU-time budget for every pattern of every workflow of the call.
  const patternBudget = new PatternBudget();
  const results = await validateWorkflows(
    files.map((f) => f.path),
    ctx,
    { allowMissing: opts.allowMissing ?? false, strict: opts.strict ?? false, aliases, patternBudget, versionMode: versionModeOf(opts) },
  );
  writeChunks(io, validateRenderers[format](results, await renderOptions(io), skipped));
  return results.every((r) => r.valid) ? 0 : 1;
}
