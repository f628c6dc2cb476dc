import { pathToFileURL } from 'node:url';
import type { Hover, Location } from 'vscode-languageserver-protocol/node.js';
import { isRefcatError } from '../../shared/errors.js';
import { isFile } from '../../shared/paths.js';
import { extract, type Extraction } from '../extract/extract.js';
import { DEFAULT_RENDER_OPTIONS, renderDiagnostic, renderMarkdownBlock } from '../output/render-extraction.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { addSuggestions, type RefFinding } from '../verify-refs/verify-refs.js';
import type { LocatedRef } from './document-refs.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import type { EditorFix, EditorFinding } from './editor-findings.js';
import { here, type LspServer, toRange } from './lsp-protocol.js';
import { primeSymbolTables } from './symbol-refs.js';
import type { PreparedVersions } from '../versions/prepare-versions.js';

/** Hover shows at most this many selected lines (docs/editor.md#hover). */
export const HOVER_MAX_LINES = 40;
/** A hover never reads a selection larger than this. */
const HOVER_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Hover on a ref: the lines it selects as `refcat <ref>` prints them (attributed markdown), cut to
 * HOVER_MAX_LINES lines with a note saying how many more there are; a broken ref shows the
 * CLI's error.
 */
export function hoverMarkdown(r: LocatedRef, docPath: string, session: EditorSession, versions?: PreparedVersions): string {
  const report = extract([r.ref], session.ctx, {
    searchDirs: docSearchDirs(docPath, session.root),
    aliases: session.aliases,
    maxSelectionChars: HOVER_MAX_CHARS,
    confine: session.confinement,
    versions,
  });
  const parts: string[] = [];
  let room = HOVER_MAX_LINES;
  let hidden = 0;
  let files = 0;
  for (const result of report.results) {
    if (room <= 0) {
      files++;
      hidden += result.lines.length;
      continue;
    }
    const shown: Extraction = result.lines.length > room ? { ...result, lines: result.lines.slice(0, room) } : result;
    hidden += result.lines.length - shown.lines.length;
    room -= shown.lines.length;
    parts.push(renderMarkdownBlock(shown, DEFAULT_RENDER_OPTIONS));
  }
  if (hidden > 0) {
    const more = files > 0 ? ` (and ${files} more file${files === 1 ? '' : 's'})` : '';
    parts.push(`*… ${hidden} more line${hidden === 1 ? '' : 's'}${more}: \`refcat ${r.ref}\` prints them all*\n`);
  }
  for (const e of report.errors) parts.push('```text\n' + renderDiagnostic('Error', e) + '```\n');
  for (const w of report.warnings) parts.push('```text\n' + renderDiagnostic('Warning', w) + '```\n');
  return parts.join('\n');
}

/** Where go to definition lands: the target file at its first selected line (0-based). */
export interface TargetLocation {
  file: string;
  line: number;
}

/**
 * Go to definition on a ref: the file it names (alias refs in the alias target) at its first
 * selected line; a folder, a missing file or a glob matching nothing is no definition. A pattern
 * that is not found lands on line 1 of the file.
 */
export function refTarget(r: LocatedRef, docPath: string, session: EditorSession): TargetLocation[] {
  const report = extract([r.ref], session.ctx, { searchDirs: docSearchDirs(docPath, session.root), aliases: session.aliases, checkOnly: true });
  const found = report.results.filter((x) => isFile(x.path)).map((x) => ({ file: x.path, line: Math.max(x.lineStart - 1, 0) }));
  if (found.length > 0) return found;
  // A selector that does not resolve still names a file to open.
  try {
    const spec = parseRef(r.ref);
    const plain = extract([{ ...spec, selector: null, raw: spec.raw.replace(/#.*$/, '') }], session.ctx, {
      searchDirs: docSearchDirs(docPath, session.root),
      aliases: session.aliases,
      checkOnly: true,
      probeWholeFiles: true,
    });
    return plain.results.filter((x) => isFile(x.path)).map((x) => ({ file: x.path, line: 0 }));
  } catch (err) {
    if (isRefcatError(err)) return [];
    throw err;
  }
}
/**
 * "Replace with <suggestion>" for a ref to a missing file: the files of the same name that
 * `verify refs --suggest-fixes` proposes (below the root, or the alias target), best first. Asked
 * for when the user looks at the finding's actions, not on every change (it walks the tree).
 */
export function replacementFixes(finding: EditorFinding, docPath: string, session: EditorSession): EditorFix[] {
  if (finding.source !== 'refs' && finding.source !== 'workflow') return [];
  if (finding.code !== 'not_found' || finding.ref === undefined) return [];
  const f: RefFinding = { severity: 'error', code: 'not_found', message: '', details: [], ref: finding.ref, file: docPath, line: finding.span.startLine + 1 };
  try {
    addSuggestions([f], session.aliases, [session.root], session.ctx);
  } catch (err) {
    if (isRefcatError(err)) return [];
    throw err;
  }
  // In a doc folder below the root, a root-relative suggestion is still found (the root is searched too).
  return (f.suggestions ?? []).map((s, i) => ({ title: `Replace with ${s}`, edits: [{ span: finding.span, newText: keepForm(finding.ref!, s) }], preferred: i === 0 }));
}

/** A workflow ref written without `@` keeps that form. */
function keepForm(written: string, suggestion: string): string {
  return suggestion.startsWith('@') && !written.startsWith('@') && !/^[A-Za-z][\w-]*:/.test(written) ? suggestion.slice(1) : suggestion;
}

/** `textDocument/hover` (docs/editor.md#what-you-get): the ref under the cursor, as hoverMarkdown shows it. */
export async function hoverHandler(params: unknown, server: LspServer): Promise<Hover | null> {
  const at = here(params, server);
  if (!at?.ref) return null;
  await primeSymbolTables([at.ref.ref], at.file.path, server.session);
  const versions = await hoverVersions(at.ref.ref, at.file.path, server.session);
  return { contents: { kind: 'markdown', value: hoverMarkdown(at.ref, at.file.path, server.session, versions) }, range: toRange({ startLine: at.line, startColumn: at.ref.start, endLine: at.line, endColumn: at.ref.end }) };
}

/**
 * The ref's version, read afresh for each hover (docs/editor.md#refs-at-a-version): its lines at
 * the pin, and the warning that the checkout is elsewhere, every time, not once a session.
 */
async function hoverVersions(ref: string, docPath: string, session: EditorSession): Promise<PreparedVersions | undefined> {
  if (!ref.includes(':')) return undefined;
  const { prepareVersions } = await import('../versions/prepare-versions.js');
  const batch = { inputs: [ref], searchDirs: docSearchDirs(docPath, session.root) };
  return (await prepareVersions([batch], session.ctx, { aliases: session.aliases, base: session.root, policy: { reachableOnly: true } })) ?? undefined;
}

/** `textDocument/definition`: where refTarget lands, or null for no definition. */
export async function definitionHandler(params: unknown, server: LspServer): Promise<Location[] | null> {
  const at = here(params, server);
  if (!at?.ref) return null;
  await primeSymbolTables([at.ref.ref], at.file.path, server.session);
  const targets = refTarget(at.ref, at.file.path, server.session);
  return targets.length === 0 ? null : targets.map((t) => ({ uri: pathToFileURL(t.file).href, range: { start: { line: t.line, character: 0 }, end: { line: t.line, character: 0 } } }));
}
