import { verifyRenderers } from '../../core/output/render-verify.js';
import { verifyRefs } from '../../core/verify-refs/verify-refs.js';
import type { ExitCode } from '../../shared/errors.js';
import { type CheckCliOptions, checkFormat, renderOptions, writeChunks } from '../check.js';
import { resolverFromFlags } from '../alias-flags.js';
import type { IO } from '../io.js';

export interface VerifyRefsCliOptions extends CheckCliOptions {
  suggestFixes?: boolean;
}

/** `refcat verify refs [PATHS...]`: check every ref found, render the report, exit 1 if any is broken. */
export async function runVerifyRefs(paths: string[], opts: VerifyRefsCliOptions, io: IO): Promise<ExitCode> {
  const format = checkFormat(opts);
  const report = verifyRefs(paths, io.ctx, {
    exclude: opts.exclude,
    aliases: resolverFromFlags(opts.alias, io.ctx),
    suggestFixes: opts.suggestFixes ?? false,
    strict: opts.strict ?? false,
  });
  writeChunks(io, verifyRenderers[format](report, { ...(await renderOptions(io)), strict: opts.strict ?? false }));
  return report.passed ? 0 : 1;
}
