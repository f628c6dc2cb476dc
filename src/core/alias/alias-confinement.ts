import type { Context } from '../../shared/context.js';
import { Confinement } from '../safe-read/confinement.js';
import type { AliasResolver } from './resolve-aliases.js';

/**
 * The root, and the targets of the aliases the user defined outside it (a config file above the
 * root or in the home folder). An alias file under the root, or an ALIAS directive of a workflow,
 * comes with the files being read and can be written by whoever wrote them: its aliases open
 * nothing outside the root, or one written file would make every folder readable.
 */
export function confinementOf(ctx: Context, aliases: AliasResolver): Confinement {
  const rootOnly = new Confinement(ctx.cwd);
  const targets = aliases
    .listReadable()
    .entries.filter((e) => e.source !== 'explicit' && !rootOnly.allows(e.origin))
    .map((e) => e.target);
  return new Confinement(ctx.cwd, targets);
}
