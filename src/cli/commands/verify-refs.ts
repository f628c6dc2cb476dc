import { verifyRenderers } from '../../core/output/render-verify.js';
import { verifyRefs, type VerifyRefsOptions } from '../../core/verify-refs/verify-refs.js';
import type { ExitCode } from '../../shared/errors.js';
import { type CheckCliOptions, checkFormat, renderOptions, writeChunks } from '../check.js';
import { resolverFromFlags } from '../alias-flags.js';
import { versionModeOf } from '../options.js';
import type { IO } from '../io.js';

export interface VerifyRefsCliOptions extends CheckCliOptions {
  suggestFixes?: boolean;
  allowMissing?: boolean;
  drift?: boolean;
  fix?: boolean;
  dryRun?: boolean;
  since?: string;
  /** `--fix-snippets`: refresh stale snippets that were verbatim at base (implies --fix). */
  fixSnippets?: boolean;
  /** `--no-snippets` sets it false. */
  snippets?: boolean;
  accept?: boolean;
}

/** `refcat verify refs [PATHS...]`: check every ref found, render the report, exit 1 if any is broken. */
export async function runVerifyRefs(paths: string[], opts: VerifyRefsCliOptions, io: IO): Promise<ExitCode> {
  const format = checkFormat(opts);
  const progress = io.progress ? progressLine(io) : undefined;
  const options: VerifyRefsOptions = {
    exclude: opts.exclude,
    skipIgnored: opts.skipIgnored ?? false,
    versionMode: versionModeOf(opts),
    drift: driftOptions(opts),
    aliases: resolverFromFlags(opts.alias, io.ctx),
    suggestFixes: opts.suggestFixes ?? false,
    allowMissing: opts.allowMissing ?? false,
    strict: opts.strict ?? false,
    snippets: opts.snippets ?? true,
    onProgress: progress?.update,
  };
  const report = await verifyRefs(paths, io.ctx, options);
  progress?.clear();
  writeChunks(io, verifyRenderers[format](report, { ...(await renderOptions(io)), strict: opts.strict ?? false }));
  return report.passed ? 0 : 1;
}

/** --fix, --fix-snippets, --dry-run, --since and --accept each imply --drift (docs/reference.md#drift-verdicts). */
function driftOptions(opts: VerifyRefsCliOptions): { since?: string; fix: boolean; dryRun: boolean; fixSnippets: boolean; accept: boolean } | undefined {
  const fixSnippets = opts.fixSnippets ?? false;
  const fix = (opts.fix ?? false) || (opts.dryRun ?? false) || fixSnippets;
  const accept = opts.accept ?? false;
  if (!opts.drift && !fix && !accept && opts.since === undefined) return undefined;
  return { since: opts.since, fix, dryRun: opts.dryRun ?? false, fixSnippets, accept };
}

/**
 * `verify refs: 1200/20000 files` on a terminal's stderr, rewritten in place at most every 200 ms
 * and only once a run has lasted a second (a quick run shows nothing), then erased.
 */
function progressLine(io: IO): { update: (checked: number, total: number) => void; clear: () => void } {
  const started = Date.now();
  let last = 0;
  let shown = false;
  return {
    update: (checked, total) => {
      const now = Date.now();
      if (now - started < 1000 || now - last < 200) return;
      last = now;
      shown = true;
      io.stderr(`\rverify refs: ${checked}/${total} files`);
    },
    clear: () => {
      if (shown) io.stderr('\r\x1b[K');
    },
  };
}
