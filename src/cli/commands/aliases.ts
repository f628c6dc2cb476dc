import { type ExitCode, toDiagnostic } from '../../shared/errors.js';
import { diagnosticJson } from '../../core/output/render-extraction.js';
import { shortRevision } from '../../core/ref-spec/revision-syntax.js';
import { type PinShown, pinStates } from '../../core/versions/pin-report.js';
import { tildify } from '../../shared/paths.js';
import { visible } from '../../shared/visible.js';
import { type IO, printDiagnostics } from '../io.js';
import { resolverFromFlags } from '../alias-flags.js';
import { type FormatOptions, formatOf, type TableFormat } from '../format-flags.js';

export interface AliasesCliOptions extends FormatOptions<TableFormat> {
  alias?: string[];
}

/**
 * `refcat aliases`: every alias from every source, in precedence order, shadowed ones marked. A
 * malformed config file is an error (exit 1) that does not hide the aliases of the other sources.
 */
export async function runAliases(opts: AliasesCliOptions, io: IO): Promise<ExitCode> {
  const { ctx } = io;
  const json = formatOf(opts, 'text') === 'json';
  const resolver = resolverFromFlags(opts.alias, ctx);
  const { entries, errors: configErrors } = resolver.listReadable();
  const errors = configErrors.map(toDiagnostic);
  const code: ExitCode = errors.length > 0 ? 1 : 0;
  const seen = new Set<string>();
  const rows = entries.map((e) => {
    const shadowed = seen.has(e.name);
    seen.add(e.name);
    return { ...e, shadowed };
  });

  const pins = await pinStates(rows, ctx);
  if (json) {
    const aliases = rows.map((r, i) => ({
      name: r.name,
      target: r.target,
      source: r.source,
      origin: r.origin,
      shadowed: r.shadowed,
      ...(pins[i] ? { pin: pins[i] } : {}),
    }));
    io.stdout(JSON.stringify({ version: 1, aliases, errors: errors.map(diagnosticJson) }, null, 2) + '\n');
    return code;
  }
  if (rows.length === 0 && errors.length === 0) {
    io.stderr(
      `No aliases defined (looked for --alias, workspace.lock.json from ${ctx.cwd} upwards, ${tildify(resolver.globalFile(), ctx.home)})\n`,
    );
    return 0;
  }
  // Names, targets and files come from config files anyone may write: escaped, so none can end
  // its row, forge another, or reach the terminal (docs/reference.md#aliases).
  const table = rows.map((r, i) => [
    visible(r.name),
    visible(tildify(r.target, ctx.home)),
    visible(tildify(r.origin, ctx.home)) + (r.shadowed ? ' (shadowed)' : '') + pinText(pins[i]),
  ]);
  const widths = [0, 1].map((i) => Math.max(...table.map((row) => row[i]!.length)));
  if (table.length > 0) {
    io.stdout(table.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`.trimEnd() + '\n').join(''));
  }
  await printDiagnostics(io, errors);
  return code;
}

function pinText(p: PinShown | null | undefined): string {
  if (!p) return '';
  const pin = visible(shortRevision(p.ref));
  if (p.commit === null) return `  pin ${pin}: ${visible(p.problem ?? 'not found')}`;
  const named = p.commit.startsWith(p.ref) ? p.commit.slice(0, 7) : `${pin} (${p.commit.slice(0, 7)})`;
  if (p.at_pin) return `  pin ${named}: checked out at the pin`;
  return `  pin ${named}: checked out at ${p.checkout ? p.checkout.slice(0, 7) : 'no commit'}`;
}
