import fs from 'node:fs';
import path from 'node:path';
import { formatRef } from '../ref-spec/format-ref-spec.js';
import { textLines } from '../../shared/line-starts.js';
import { outlineDeclarations, textDeclarations } from '../symbols/declaration-table.js';
import { MAX_SYMBOL_FILE_BYTES, symbolLanguageOf } from '../symbols/languages.js';
import { markerText, type OutlineEntry, outlineOf } from '../symbols/outline.js';

/** What an outline needs of an extraction (extract.ts's Extraction has it). */
interface Checked {
  ref: string;
  alias: string | null;
  path: string;
  relPath: string;
  lineStart: number;
  lineEnd: number;
  lines: string[];
  /** Set for a ref that named its revision: the file as the ref that reads that version (`.@<sha>:path`). */
  fileSpec?: string;
}

/** What `--outline` made of a file (docs/refs.md#outlines---outline). */
export interface OutlineInfo {
  /** Why the file was not outlined (`no grammar for .md files`, `larger than 1 MiB (1.05 MiB)`), or null. */
  skipped: string | null;
  /** The kept lines and markers, in file order (empty when skipped). */
  entries: OutlineEntry[];
}

/**
 * The outline of the file `checked` read (a ref's lines counted, not kept): its `lines` become
 * the outline's (kept lines and marker lines), `outline` says how. A ref with a selector outlines
 * the declarations that start in its lines. The file's grammar must be loaded (prepareOutline()).
 */
export function outlineExtraction<T extends Checked>(
  checked: T,
  selected: boolean,
  version?: Buffer,
  redact?: (text: string) => readonly string[] | undefined,
): T & { outline: OutlineInfo } {
  const grammar = symbolLanguageOf(checked.path);
  if (!grammar) {
    const ext = path.extname(checked.path) || path.basename(checked.path);
    return { ...checked, lines: [], outline: { skipped: `no grammar for ${ext} files`, entries: [] } };
  }
  // A file read at a version is outlined as that version holds it (docs/refs.md#refs-at-a-version).
  const size = version ? version.length : fs.statSync(checked.path).size;
  if (size > MAX_SYMBOL_FILE_BYTES) {
    return { ...checked, lines: [], outline: { skipped: `larger than 1 MiB (${(size / (1024 * 1024)).toFixed(2)} MiB)`, entries: [] } };
  }
  // Read once, for its table and its lines; a table it had in an earlier run is read back by the
  // text (docs/symbols.md#the-table-cache).
  const text = version ? version.toString('utf8') : fs.readFileSync(checked.path, 'utf8');
  // A `.h` file's grammar is C or C++ by what its text holds.
  const language = symbolLanguageOf(checked.path, text) ?? grammar;
  const table = version ? textDeclarations(text, language, checked.ref) : outlineDeclarations(checked.path, text, language, checked.ref);
  // A file that holds a secret is outlined from its redacted lines (docs/refs.md#secrets), found
  // on the text read here: only a file the outline prints lines of is looked at.
  const redacted = redact?.(text);
  const lines = redacted ? [...redacted] : textLines(text);
  const within = selected ? { start: checked.lineStart, end: checked.lineEnd } : undefined;
  const entries = outlineOf(lines, table, language, within, redacted !== undefined);
  return { ...checked, lines: outlineLines(entries, markerHead(checked, false)), outline: { skipped: null, entries } };
}

/** The outline's lines as text: a kept line as it is, a marker as `⋯ N lines: <ref>`. */
export function outlineLines(entries: readonly OutlineEntry[], head: string): string[] {
  return entries.map((e) => (e.kind === 'line' ? e.text : markerText(e, head)));
}

/**
 * The ref a marker's selector follows: `@src/app.ts`, `alias:path`, or the absolute path (`--absolute`).
 * A file read at a revision (`alias@REV:`, `.@REV:`, `--at`) is named as `--spec` names it,
 * `alias@<sha>:path`, even with `--absolute`: any other name reads the checkout or the pin.
 */
export function markerHead(r: Pick<Checked, 'alias' | 'path' | 'relPath' | 'fileSpec'>, absolute: boolean): string {
  if (r.fileSpec !== undefined) return r.fileSpec;
  if (absolute && !r.alias) return formatRef({ alias: null, path: r.path, selector: null });
  return formatRef({ alias: r.alias, path: r.relPath, selector: null });
}
