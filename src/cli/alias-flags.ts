import { AliasResolver } from '../core/alias/resolve-aliases.js';
import type { Context } from '../shared/context.js';
import { splitAlias } from './options.js';

/** A resolver with the `--alias NAME=PATH` pairs of the command line (paths relative to cwd). */
export function resolverFromFlags(pairs: readonly string[] | undefined, ctx: Context): AliasResolver {
  return new AliasResolver(ctx, {
    explicit: (pairs ?? []).map((pair) => ({ ...splitAlias(pair), base: ctx.cwd, origin: '--alias' })),
  });
}
