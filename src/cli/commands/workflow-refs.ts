import type { AliasResolver } from '../../core/alias/resolve.js';
import type { RefSpec } from '../../core/spec/types.js';
import type { Context } from '../../shared/context.js';
import { UsageError } from '../../shared/errors.js';

/** `--from-workflow`: the REFCAT and CONTEXT refs of a .conv file (needs the .conv parser). */
export function workflowRefs(file: string, _ctx: Context, _aliases: AliasResolver): RefSpec[] {
  throw new UsageError(`--from-workflow is not available yet (${file})`);
}
