import type { CheckFormat, CheckRenderOptions, OutputChunk } from '../core/output/render-findings.js';
import { formatOf } from './format-flags.js';
import { type IO, stderrColors } from './io.js';

/** Flags shared by the check commands (`validate`, `verify refs`). */
export interface CheckCliOptions {
  json?: boolean;
  format?: CheckFormat;
  strict?: boolean;
  exclude?: string[];
  alias?: string[];
  skipIgnored?: boolean;
  worktree?: boolean;
  pinned?: boolean;
}

/** `--json` is `--format json`; asking for two different formats is a usage error. */
export function checkFormat(opts: CheckCliOptions): CheckFormat {
  return formatOf(opts, 'text');
}

export async function renderOptions(io: IO): Promise<CheckRenderOptions> {
  return { cwd: io.ctx.cwd, ...(await stderrColors(io)) };
}

export function writeChunks(io: IO, chunks: readonly OutputChunk[]): void {
  for (const c of chunks) if (c.text) (c.stream === 'stdout' ? io.stdout : io.stderr)(c.text);
}
