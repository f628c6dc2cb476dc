import fs from 'node:fs';
import path from 'node:path';
import { isRefcatError } from '../../shared/errors.js';
import { extract } from '../extract/extract.js';
import type { Declaration } from '../symbols/declaration.js';
import { loadFileDeclarations } from '../symbols/declaration-table.js';
import { primeSymbolTables as primeTables } from '../symbols/prime-tables.js';
import { symbolLanguageOf } from '../symbols/languages.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import type { CompletionEntry } from './completion-entry.js';
import type { DocumentKind } from './document-refs.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import { namesSymbol } from '../symbols/outline.js';
import { lineRange } from '../ref-spec/format-ref-spec.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import { secretNames } from '../secrets/secret-names.js';

/**
 * Symbol refs in the editor (docs/editor.md#refs-by-name). The checks, hover and go to definition
 * resolve refs synchronously, through the declaration tables cached in src/core/symbols; the
 * server fills that cache first, here, by asking its parser worker without waiting on it, so a
 * parse never blocks typing. A table already cached (same mtime and size) costs a stat.
 */

/** Load the declaration tables of the files the symbol refs among `refs` name (as written in the document at `docPath`). */
export async function primeSymbolTables(refs: Iterable<string>, docPath: string, session: EditorSession, wanted?: () => boolean): Promise<void> {
  const dirsOf = (spec: RefSpec) => {
    if (!spec.alias) return docSearchDirs(docPath, session.root);
    const target = session.aliases.lookup(spec.alias)?.target;
    return target ? [target] : [];
  };
  await primeTables(refs, dirsOf, undefined, wanted);
}

/** Characters a symbol path may hold as it is typed after `#` (docs/symbols.md#grammar). */
const SYMBOL_AFTER = new RegExp(`(?:^|[\\s([{<"'\`*_~>|,;=])(@?(?:[A-Za-z][\\w-]*:)?[^\\s#\`'"<>()\\[\\]{}|,;]+)#([\\p{L}\\p{N}_$.:~]*)$`, 'u');

/** Most symbol paths in one completion list. */
const MAX_SYMBOL_COMPLETIONS = 500;

/**
 * After `#` in a ref to a file with a grammar: its symbol paths starting with what is typed, each
 * with its kind and lines (`~N` where a path repeats, as `refcat symbols` lists them). `#L` and a
 * digit is a line range: nothing here (complete-ref.ts gives the line count).
 */
export async function symbolCompletions(lineText: string, column: number, docPath: string, kind: DocumentKind, session: EditorSession): Promise<CompletionEntry[]> {
  const before = lineText.slice(0, column);
  const m = SYMBOL_AFTER.exec(before);
  if (!m) return [];
  const ref = m[1]!;
  // As for paths (complete-ref.ts): a ref needs `@` or an alias, but on a workflow's REFCAT line.
  if (!ref.startsWith('@') && !/^[A-Za-z][\w-]*:/.test(ref) && !(kind === 'conv' && /^\s*REFCAT\s/.test(before))) return [];
  const typed = m[2]!.replace(/::/g, '.');
  if (/^L[-\d]/.test(typed)) return [];
  let file: string | undefined;
  try {
    const report = extract([ref], session.ctx, { searchDirs: docSearchDirs(docPath, session.root), aliases: session.aliases, checkOnly: true });
    file = report.results.length === 1 ? report.results[0]!.path : undefined;
  } catch (err) {
    if (isRefcatError(err)) return [];
    throw err;
  }
  if (!file || !symbolLanguageOf(file) || !isFile(file)) return [];
  let table: Declaration[];
  try {
    table = await loadFileDeclarations(file, ref);
  } catch {
    return [];
  }
  const from = column - m[2]!.length;
  // A name that is a secret, and a member of a type so named, are not offered (docs/refs.md#secrets).
  const secrets = secretNames({ path: file, relPath: path.relative(session.ctx.cwd, file) }, table, new SecretScanner('redact', session.ctx.cwd));
  return symbolPaths(table)
    // A name no symbol ref can write (`#secret`, `[Symbol.dispose]`) would be a broken ref once inserted.
    .filter((s) => s.name.startsWith(typed) && namesSymbol(s.name, s.decl.path) && !secrets?.redacted.has(s.decl.index))
    .slice(0, MAX_SYMBOL_COMPLETIONS)
    .map((s) => ({
      label: s.name,
      kind: 'symbol' as const,
      symbolKind: s.decl.kind,
      detail: `${s.decl.kind}  ${lineRange({ start: s.decl.startLine, end: s.decl.endLine })}`,
      newText: s.name,
      from,
      to: column,
    }));
}

/** Each declaration's path as a ref names it: `~N` where several share it; an extension is named by its type, so it is left out. */
function symbolPaths(table: readonly Declaration[]): { name: string; decl: Declaration }[] {
  const own = table.filter((d) => d.kind !== 'extension');
  const counts = new Map<string, number>();
  for (const d of own) counts.set(d.path, (counts.get(d.path) ?? 0) + 1);
  const seen = new Map<string, number>();
  return own.map((d) => {
    const n = (seen.get(d.path) ?? 0) + 1;
    seen.set(d.path, n);
    return { name: counts.get(d.path)! > 1 ? `${d.path}~${n}` : d.path, decl: d };
  });
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
