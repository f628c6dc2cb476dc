import type { ExitCode } from '../../shared/errors.js';
import { tildify } from '../../shared/paths.js';
import type { IO } from '../io.js';
import { resolverFromFlags } from '../alias-flags.js';

export interface AliasesCliOptions {
  json?: boolean;
  alias?: string[];
}

/** `refcat aliases`: every alias from every source, in precedence order, shadowed ones marked. */
export async function runAliases(opts: AliasesCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const resolver = resolverFromFlags(opts.alias, ctx);
  const seen = new Set<string>();
  const rows = resolver.list().map((e) => {
    const shadowed = seen.has(e.name);
    seen.add(e.name);
    return { ...e, shadowed };
  });

  if (opts.json) {
    const json = rows.map((r) => ({
      name: r.name,
      target: r.target,
      source: r.source,
      origin: r.origin,
      shadowed: r.shadowed,
    }));
    io.stdout(JSON.stringify({ version: 1, aliases: json }, null, 2) + '\n');
    return 0;
  }
  if (rows.length === 0) {
    io.stderr(
      `No aliases defined (looked for --alias, workspace.lock.json from ${ctx.cwd} upwards, ${tildify(resolver.globalFile(), ctx.home)})\n`,
    );
    return 0;
  }
  const table = rows.map((r) => [
    r.name,
    tildify(r.target, ctx.home),
    tildify(r.origin, ctx.home) + (r.shadowed ? ' (shadowed)' : ''),
  ]);
  const widths = [0, 1].map((i) => Math.max(...table.map((row) => row[i]!.length)));
  io.stdout(table.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd() + '\n').join(''));
  return 0;
}
