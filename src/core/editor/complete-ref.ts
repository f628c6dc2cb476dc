import fs from 'node:fs';
import path from 'node:path';
import { type CompletionItem, CompletionItemKind, type CompletionList } from 'vscode-languageserver-protocol/node.js';
import { isRefcatError } from '../../shared/errors.js';
import { extract } from '../extract/extract.js';
import type { Confinement } from '../safe-read/confinement.js';
import { DEFAULT_SKIP_DIRS } from '../walk/collect-files.js';
import { GitIgnore } from '../walk/gitignore.js';
import type { DocumentKind } from './document-refs.js';
import type { CompletionEntry, Completions } from './completion-entry.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import { here, type LspServer, toRange } from './lsp-protocol.js';
import { symbolCompletions } from './symbol-refs.js';

export type { CompletionEntry, Completions } from './completion-entry.js';

/** Most entries of one completion list. */
export const MAX_COMPLETIONS = 200;

/** Characters a ref may directly follow (as in docs: find-doc-refs.ts). */
const BEFORE = `(?:^|[\\s([{<"'\`*_~>|,;=])`;
const PATH_CHARS = `[^\\s#\`'"<>()\\[\\]{}|,;]`;
const LINES_AFTER = new RegExp(`${BEFORE}(@?(?:[A-Za-z][\\w-]*:)?${PATH_CHARS}+)#(L\\d*)$`);
const PATH_AFTER = new RegExp(`${BEFORE}(@)?(?:([A-Za-z][\\w-]*):)?(${PATH_CHARS.replace('#', '#:')}*)$`);
const WORKFLOW_REF_LINE = /^\s*(REFCAT|CONTEXT|CONTEXT-OPTIONAL)\s/;

/**
 * Completion in a ref (docs/editor.md#completion): after `@` (or `alias:`), the files and folders
 * under the root (or the alias target) whose names start with what is typed, `.gitignore` and the
 * folders refs never look in (node_modules, .git, ...) left out; after `#L`, the file's lines.
 * In a workflow's REFCAT line a ref needs no `@`.
 */
export function completeRef(lineText: string, column: number, docPath: string, kind: DocumentKind, session: EditorSession): Completions {
  const before = lineText.slice(0, column);
  const none: Completions = { entries: [], incomplete: false };
  const lines = LINES_AFTER.exec(before);
  if (lines) return { entries: lineEntries(lines[1]!, lines[2]!, column, docPath, session), incomplete: false };
  const m = PATH_AFTER.exec(before);
  if (!m) return none;
  const [, at, alias, typed] = m as unknown as [string, string | undefined, string | undefined, string];
  const bare = !at && !alias;
  if (bare && !(kind === 'conv' && WORKFLOW_REF_LINE.test(before) && typed.length > 0)) return none;
  let base: string;
  if (alias) {
    let entry;
    try {
      entry = session.aliases.lookup(alias);
    } catch (err) {
      if (isRefcatError(err)) return none;
      throw err;
    }
    if (!entry) return none;
    base = entry.target;
  } else {
    base = session.root;
  }
  const slash = typed.lastIndexOf('/');
  const dirPart = typed.slice(0, slash + 1);
  const prefix = typed.slice(slash + 1);
  return pathEntries(base, dirPart, prefix, column, session.confinement);
}

function pathEntries(base: string, dirPart: string, prefix: string, column: number, confinement: Confinement): Completions {
  const dir = path.resolve(base, dirPart);
  // A folder outside the root and the alias targets (`@../`, `@/etc/`, a symlink leading out) is not listed.
  if (!confinement.allows(dir)) return { entries: [], incomplete: false };
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return { entries: [], incomplete: false };
  }
  const ignore = new GitIgnore(dir, base);
  const entries: CompletionEntry[] = [];
  let matched = 0;
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    if (!d.name.startsWith(prefix) || (d.name.startsWith('.') && !prefix.startsWith('.'))) continue;
    const abs = path.join(dir, d.name);
    const folder = d.isDirectory() || (d.isSymbolicLink() && statOrNull(abs)?.isDirectory() === true);
    if (folder ? DEFAULT_SKIP_DIRS.includes(d.name) || ignore.ignoresFolder(abs) : ignore.ignores(abs)) continue;
    if (d.isSymbolicLink() && !confinement.allows(abs)) continue;
    matched++;
    if (entries.length >= MAX_COMPLETIONS) continue;
    const name = folder ? d.name + '/' : d.name;
    entries.push({ label: name, kind: folder ? 'folder' : 'file', newText: name, from: column - prefix.length, to: column });
  }
  return { entries, incomplete: matched > entries.length };
}

/** After `#L`: the whole file, and from the typed line to the end; the detail gives the line count. */
function lineEntries(ref: string, typed: string, column: number, docPath: string, session: EditorSession): CompletionEntry[] {
  const report = extract([ref], session.ctx, { searchDirs: docSearchDirs(docPath, session.root), aliases: session.aliases, checkOnly: true, confine: session.confinement });
  const file = report.results[0];
  if (report.results.length !== 1 || !file || file.totalLines === null || !statOrNull(file.path)?.isFile()) return [];
  const n = file.totalLines;
  const detail = `${n} line${n === 1 ? '' : 's'}`;
  const from = column - typed.length;
  const start = Number(typed.slice(1));
  const ranges = typed === 'L' || start < 1 || start > n ? [`L1-L${n}`, `L${n}`] : [`L${start}-L${n}`, `L${start}`];
  return [...new Set(ranges)].filter(() => n > 0).map((label) => ({ label, kind: 'lines' as const, detail, newText: label, from, to: column }));
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

/** `textDocument/completion` (docs/editor.md#what-you-get): paths and lines (completeRef), then symbol paths. */
export async function completionHandler(params: unknown, server: LspServer): Promise<CompletionList | null> {
  const at = here(params, server);
  if (!at) return null;
  const { session } = server;
  const column = Math.min(at.character, at.lineText.length);
  const { entries: paths, incomplete } = completeRef(at.lineText, column, at.file.path, at.file.kind, session);
  const entries = [...paths, ...(await symbolCompletions(at.lineText, column, at.file.path, at.file.kind, session))];
  const items: CompletionItem[] = entries.map((e, i) => ({
    label: e.label,
    kind: completionKind(e),
    ...(e.detail ? { detail: e.detail } : {}),
    sortText: String(i).padStart(4, '0'),
    textEdit: { range: toRange({ startLine: at.line, startColumn: e.from, endLine: at.line, endColumn: e.to }), newText: e.newText },
  }));
  return { isIncomplete: incomplete, items };
}

/** What a client shows beside an entry: a declaration's own kind for a symbol path. */
const SYMBOL_ITEM_KINDS: Record<string, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  class: CompletionItemKind.Class,
  struct: CompletionItemKind.Struct,
  enum: CompletionItemKind.Enum,
  interface: CompletionItemKind.Interface,
  protocol: CompletionItemKind.Interface,
  trait: CompletionItemKind.Interface,
  object: CompletionItemKind.Class,
  type: CompletionItemKind.TypeParameter,
  module: CompletionItemKind.Module,
  constant: CompletionItemKind.Constant,
  variable: CompletionItemKind.Variable,
  property: CompletionItemKind.Property,
  field: CompletionItemKind.Field,
  enum_case: CompletionItemKind.EnumMember,
};

function completionKind(e: CompletionEntry): CompletionItemKind {
  if (e.kind === 'symbol') return SYMBOL_ITEM_KINDS[e.symbolKind ?? ''] ?? CompletionItemKind.Reference;
  return e.kind === 'folder' ? CompletionItemKind.Folder : e.kind === 'file' ? CompletionItemKind.File : CompletionItemKind.Value;
}
