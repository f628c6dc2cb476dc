import type { Diagnostic } from '../../shared/errors.js';
import type { Declaration } from '../symbols/declaration.js';
import { diagnosticJson } from './render-extraction.js';
import { lineRange } from '../ref-spec/format-ref-spec.js';

/** What is rendered: a listing as listSymbols() makes it (src/core/pipeline/list-symbols.ts). */
export interface SymbolListing {
  files: { displayPath: string; declarations: (Declaration & { ref: string; depth: number })[] }[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * `refcat symbols` output (docs/symbols.md#listing-refcat-symbols), for the CLI and the MCP
 * `symbols` tool alike: `@src/app.ts#Store.save  L40-L52  method`, members indented under their
 * parents, columns aligned per file; or the JSON report.
 */
export function renderSymbolsText(listing: SymbolListing): string {
  let out = '';
  for (const file of listing.files) {
    const rows = file.declarations.map((d) => ['  '.repeat(d.depth) + d.ref, lineRange({ start: d.startLine, end: d.endLine }), d.kind] as const);
    const w0 = Math.max(0, ...rows.map((r) => r[0].length));
    const w1 = Math.max(0, ...rows.map((r) => r[1].length));
    for (const r of rows) out += `${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2]}\n`;
  }
  return out;
}

export function renderSymbolsJson(listing: SymbolListing): string {
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
