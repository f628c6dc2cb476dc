import { diagnosticJson } from '../../core/output/render-extraction.js';
import { listSymbols, type SymbolListing } from '../../core/pipeline/list-symbols.js';
import { type ExitCode, UsageError } from '../../shared/errors.js';
import { resolverFromFlags } from '../alias-flags.js';
import { type IO, printDiagnostics } from '../io.js';

export interface SymbolsCliOptions {
  json?: boolean;
  alias?: string[];
  ignore: boolean;
}

/** `refcat symbols REFS...`: one line per declaration (docs/symbols.md#listing-refcat-symbols). */
export async function runSymbols(refs: string[], opts: SymbolsCliOptions, io: IO): Promise<ExitCode> {
  if (refs.length === 0) throw new UsageError("No files given (try 'refcat symbols src/app.ts' or 'refcat symbols \"src/**/*.ts\"')");
  const listing = await listSymbols(refs, io.ctx, { aliases: resolverFromFlags(opts.alias, io.ctx), noIgnore: !opts.ignore });
  io.stdout(opts.json ? renderJson(listing) : renderText(listing));
  if (!opts.json) await printDiagnostics(io, listing.errors, listing.warnings);
  return listing.errors.length > 0 ? 1 : 0;
}

/** `@src/app.ts#Store.save  L40-L52  method`, members indented under their parents, columns aligned per file. */
function renderText(listing: SymbolListing): string {
  let out = '';
  for (const file of listing.files) {
    const rows = file.declarations.map((d) => ['  '.repeat(d.depth) + d.ref, d.startLine === d.endLine ? `L${d.startLine}` : `L${d.startLine}-L${d.endLine}`, d.kind] as const);
    const w0 = Math.max(0, ...rows.map((r) => r[0].length));
    const w1 = Math.max(0, ...rows.map((r) => r[1].length));
    for (const r of rows) out += `${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2]}\n`;
  }
  return out;
}

function renderJson(listing: SymbolListing): string {
  const files = listing.files.map((f) => ({
    path: f.displayPath,
    symbols: f.declarations.map((d) => ({
      ref: d.ref,
      path: d.path,
      name: d.name,
      kind: d.kind,
      start_line: d.startLine,
      end_line: d.endLine,
      name_line: d.nameLine,
      body_start: d.bodyStart,
      depth: d.depth,
    })),
  }));
  const errors = listing.errors.map(diagnosticJson);
  const warnings = listing.warnings.map(diagnosticJson);
  return JSON.stringify({ version: 1, files, errors, warnings }, null, 2) + '\n';
}
