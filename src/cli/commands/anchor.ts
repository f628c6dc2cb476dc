import { anchorRefs } from '../../core/anchor/anchor-refs.js';
import { renderAnchor } from '../../core/output/render-anchor.js';
import type { ExitCode } from '../../shared/errors.js';
import { resolverFromFlags } from '../alias-flags.js';
import { writeChunks } from '../check.js';
import type { IO } from '../io.js';
import { type FormatOptions, formatOf, type TableFormat } from '../format-flags.js';

export interface AnchorCliOptions extends FormatOptions<TableFormat> {
  drift?: boolean;
  since?: string;
  dryRun?: boolean;
  exclude?: string[];
  skipIgnored?: boolean;
  alias?: string[];
}

/**
 * `refcat anchor [PATHS...]`: rewrite line refs that are exactly one declaration into symbol refs
 * (docs/drift.md#anchoring). Exit 1 only when a file could not be written (or was not, a link
 * leading out), as for `verify refs --fix`.
 */
export async function runAnchor(paths: string[], opts: AnchorCliOptions, io: IO): Promise<ExitCode> {
  const drift = opts.drift || opts.since !== undefined ? { since: opts.since } : undefined;
  const report = await anchorRefs(paths, io.ctx, {
    exclude: opts.exclude,
    skipIgnored: opts.skipIgnored ?? false,
    aliases: resolverFromFlags(opts.alias, io.ctx),
    drift,
    dryRun: opts.dryRun ?? false,
  });
  writeChunks(io, renderAnchor(report, { cwd: io.ctx.cwd, json: formatOf(opts, 'text') === 'json' }));
  return report.notWritten.some((n) => n.kind === 'unwritable' || n.kind === 'outside') ? 1 : 0;
}
