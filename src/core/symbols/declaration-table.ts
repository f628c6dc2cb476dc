import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { Tree } from 'web-tree-sitter';
import path from 'node:path';
import { directoryError, RefError } from '../../shared/errors.js';
import type { Declaration } from './declaration.js';
import { type Grammar, loadedGrammar, loadGrammar } from './grammar-loader.js';
import { MAX_SYMBOL_FILE_BYTES, type SymbolLanguage, symbolExtensions, symbolLanguageOf } from './languages.js';
import { namePlaces, nodesOver } from './named-nodes.js';
import { type LazyTable, readDeclarations, readDeclarationsLazily } from './read-declarations.js';
import { keepTable, keptTable } from './table-cache.js';
import { tablesAhead } from './tables-ahead.js';
import type { DefinitionsQuery } from './type-tests.js';

/**
 * A file's declaration table (docs/symbols.md#the-declaration-table). Tables are cached by path,
 * modification time and size; trees are deleted as soon as they are read, since the WebAssembly
 * heap grows with the largest file parsed and never shrinks.
 */

/** The declarations of `text`, parsed with a loaded grammar. */
export function parseDeclarations(text: string, grammar: Grammar): Declaration[] {
  const tree = treeOf(text, grammar);
  if (!tree) return [];
  try {
    return readDeclarations(tree.rootNode, grammar.definitions);
  } finally {
    tree.delete();
  }
}

/**
 * The table read last by parseDeclarationsLazily(), whose tree lives until the next parse: its
 * lines not asked for yet are read then, and the tree deleted.
 */
let unsettled: { tree: Tree; text: string; grammar: Grammar; table: Declaration[]; settle: () => void } | null = null;

/**
 * A tree of `text`: the last table's when it was read from this very text (a symbol ref read
 * its own names first, named-nodes.ts), else a new parse. The last table is settled either way.
 */
function treeOf(text: string, grammar: Grammar): Tree | null {
  const last = unsettled;
  if (last && last.grammar === grammar && last.text === text) {
    unsettled = null;
    last.settle();
    return last.tree;
  }
  settleLastTable();
  return grammar.parser.parse(text);
}

function settleLastTable(): void {
  const last = unsettled;
  if (!last) return;
  unsettled = null;
  try {
    last.settle();
  } finally {
    last.tree.delete();
  }
}

/**
 * parseDeclarations(), with the lines that cost most to read (a declaration's first and last
 * line and where its body starts) read when first asked for: a symbol ref into a file asks for
 * them on the declarations of its name only. The tree is kept until the next parse (a parse of
 * a file at a time: the heap holds one more tree than it did, not one a file).
 */
function parseDeclarationsLazily(text: string, grammar: Grammar): Declaration[] {
  const tree = treeOf(text, grammar);
  if (!tree) return [];
  return readLazily(tree, text, grammar, grammar.definitions).table;
}

/** The table of `tree` read lazily by `definitions`; the tree lives until the next parse. */
function readLazily(tree: Tree, text: string, grammar: Grammar, definitions: DefinitionsQuery): LazyTable {
  try {
    const read = readDeclarationsLazily(tree.rootNode, definitions);
    unsettled = { tree, text, grammar, table: read.table, settle: read.settle };
    return read;
  } catch (err) {
    tree.delete();
    throw err;
  }
}

const MAX_CACHED_TABLES = 512;
const tables = new Map<string, { mtimeMs: number; size: number; table: Declaration[] }>();

/** The grammar that reads `file` (with its `text`, a header's: C or C++), or a RefError naming the languages that have one. */
export function symbolLanguageFor(file: string, refText: string, text?: string): SymbolLanguage {
  const language = symbolLanguageOf(file, text);
  if (language) return language;
  const ext = path.extname(file) || path.basename(file);
  // The ref is named: a glob (`@src/**#parse`) has one such error per file.
  throw new RefError('no_parser', `No parser for '${ext}' files in ${refText}; symbol refs work in: ${symbolExtensions()}`, refText);
}

/**
 * Parsing elsewhere: a server's worker (declaration-worker.ts). While one is set, this thread
 * loads no grammar; tables come back from it as plain data and are cached here as ever.
 */
export interface DeclarationParser {
  parse(text: string, language: SymbolLanguage): Promise<Declaration[]>;
  /** Blocks this thread until the table is back: for the synchronous extraction path. */
  parseSync(text: string, language: SymbolLanguage): Declaration[];
}

let offThread: DeclarationParser | null = null;

/** Parse with `parser` from now on (null: in this thread again). */
export function useDeclarationParser(parser: DeclarationParser | null): void {
  offThread = parser;
}

/** Whether tables are parsed off this thread (then nothing needs loading here first). */
export function parsesOffThread(): boolean {
  return offThread !== null;
}

/**
 * The declaration table of the file at `abs`, synchronously: its grammar must have been loaded
 * (loadGrammars(), or prepareSymbolRefs() for a list of refs), or a parser set by
 * useDeclarationParser(). Throws RefError: no grammar for the file's extension, the file too
 * large, unreadable.
 */
export function fileDeclarations(abs: string, refText: string): Declaration[] {
  symbolLanguageFor(abs, refText); // 'No parser' before any read; a header's grammar is known from its text
  const stat = parseableStat(abs, refText);
  const hit = cachedTable(abs, stat);
  if (hit) return hit;
  const text = readSource(abs, refText);
  return remember(abs, stat, tableOfText(text, symbolLanguageFor(abs, refText, text), refText, parseDeclarationsLazily));
}

/** A table of some of a file's declarations: those a symbol ref naming `names` can resolve to. */
interface NamedTable {
  mtimeMs: number;
  size: number;
  names: ReadonlySet<string>;
  table: Declaration[];
}
const namedTables = new Map<string, NamedTable>();

/**
 * The declarations of the file at `abs` that a symbol ref whose path is written with `names` can
 * resolve to, and every declaration they are in (docs/design/symbols.md#a-symbol-ref-reads-its-own-names):
 * `whole` when it is the file's whole table. A second ref into the file with other names gets the
 * whole table, read from the same tree when it is still the last one parsed. Throws RefError as
 * fileDeclarations() does.
 */
export function fileDeclarationsNamed(abs: string, names: readonly string[], refText: string): { table: Declaration[]; whole: boolean } {
  symbolLanguageFor(abs, refText); // 'No parser' before any read; a header's grammar is known from its text
  const stat = parseableStat(abs, refText);
  const hit = cachedTable(abs, stat);
  if (hit) return { table: hit, whole: true };
  const earlier = namedTables.get(abs);
  if (earlier && earlier.mtimeMs === stat.mtimeMs && earlier.size === stat.size) {
    if (names.every((n) => earlier.names.has(n))) return { table: earlier.table, whole: false };
    return { table: fileDeclarations(abs, refText), whole: true };
  }
  const text = readSource(abs, refText);
  const read = textDeclarationsNamed(text, symbolLanguageFor(abs, refText, text), names, refText);
  if (read.whole) remember(abs, stat, read.table);
  else {
    if (namedTables.size >= MAX_CACHED_TABLES) namedTables.delete(namedTables.keys().next().value!);
    namedTables.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, names: new Set(names), table: read.table });
  }
  return read;
}

/**
 * fileDeclarationsNamed() of source text (a file read at a version): the whole table when one is
 * kept or it is parsed off this thread; else the declarations matched at the nodes the names are
 * written in (named-nodes.ts), kept on disk under those names.
 */
export function textDeclarationsNamed(text: string, language: SymbolLanguage, names: readonly string[], refText: string): { table: Declaration[]; whole: boolean } {
  const whole = () => ({ table: tableOfText(text, language, refText, parseDeclarationsLazily), whole: true });
  if (offThread) return whole();
  const kept = keptTable(text, language);
  if (kept) return { table: kept, whole: true };
  const sorted = [...new Set(names)].sort();
  const keptNamed = keptTable(text, language, sorted);
  if (keptNamed) return { table: keptNamed, whole: false };
  const grammar = loadedGrammar(language);
  const query = grammar?.walked() ?? null;
  const places = query ? namePlaces(text, sorted) : null;
  if (!grammar || !query || !places) return whole();
  const tree = treeOf(text, grammar);
  if (!tree) return { table: [], whole: true };
  const read = readLazily(tree, text, grammar, { matches: (root) => query.matchesAt(nodesOver(root, places)) });
  // A getter and setter read as one: whether a declaration comes between them is for the whole table to say.
  if (read.merged) return whole();
  keepTable(text, language, read.table, sorted);
  return { table: read.table, whole: false };
}

/** fileDeclarations(), loading the grammar first (or asking the parser set by useDeclarationParser()). */
export async function loadFileDeclarations(abs: string, refText: string): Promise<Declaration[]> {
  return (await loadFileDeclarationsRead(abs, refText)).table;
}

/**
 * loadFileDeclarations(), with the text read for it: null when the table was cached in memory
 * (then the file was not read). For a caller that checks the text too (a listing's secrets).
 */
export async function loadFileDeclarationsRead(abs: string, refText: string): Promise<{ table: Declaration[]; text: string | null }> {
  symbolLanguageFor(abs, refText); // 'No parser' before any read; a header's grammar is known from its text
  const stat = parseableStat(abs, refText);
  const hit = cachedTable(abs, stat);
  if (hit) {
    // Plain data for these callers (a server, `symbols`, drift), whose tables may be serialized.
    if (unsettled?.table === hit) settleLastTable();
    return { table: hit, text: null };
  }
  const text = readSource(abs, refText);
  const language = symbolLanguageFor(abs, refText, text);
  const kept = keptTable(text, language);
  if (kept) return { table: remember(abs, stat, kept), text };
  const table = offThread ? await offThread.parse(text, language) : parseDeclarations(text, await loadGrammar(language));
  keepTable(text, language, table);
  return { table: remember(abs, stat, table), text };
}

/**
 * A source file's text, refused as extraction refuses a binary file (docs/reference.md#reading-files:
 * a NUL byte in the first 8 KiB, or bytes that are not UTF-8), not parsed as replacement characters.
 */
export function sourceText(bytes: Buffer, refText: string): string {
  if (bytes.subarray(0, 8 * 1024).includes(0) || !isUtf8(bytes)) throw new RefError('binary', `Binary file: ${refText}`, refText);
  return bytes.toString('utf8');
}

function readSource(abs: string, refText: string): string {
  return sourceText(fs.readFileSync(abs), refText);
}

function parseableStat(abs: string, refText: string): fs.Stats {
  const stat = fs.statSync(abs);
  // Read whole below: a FIFO would wait for a writer forever, as extraction's openFile() says.
  if (stat.isDirectory()) throw directoryError(refText);
  if (!stat.isFile()) throw new RefError('not_regular', `Not a regular file: ${refText}`, refText);
  if (stat.size > MAX_SYMBOL_FILE_BYTES) {
    const mib = (stat.size / (1024 * 1024)).toFixed(1);
    throw new RefError('too_large', `${refText} is too large for symbol refs (${mib} MiB; at most 1 MiB)`, refText);
  }
  return stat;
}

function cachedTable(abs: string, stat: fs.Stats): Declaration[] | null {
  const cached = tables.get(abs);
  return cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size ? cached.table : null;
}

function remember(abs: string, stat: fs.Stats, table: Declaration[]): Declaration[] {
  if (tables.size >= MAX_CACHED_TABLES && !tables.has(abs)) tables.delete(tables.keys().next().value!);
  tables.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, table });
  return table;
}

/** The declarations of source text in a language (for callers holding text, not a file: an editor's buffer). */
export async function declarationsOfText(text: string, language: SymbolLanguage): Promise<Declaration[]> {
  if (offThread) return offThread.parse(text, language);
  return parseDeclarations(text, await loadGrammar(language));
}

/**
 * The declarations of source text, synchronously (its grammar loaded, or a parser set by
 * useDeclarationParser()): for a file read at a version, whose text is not on disk.
 */
export function textDeclarations(text: string, language: SymbolLanguage, refText: string): Declaration[] {
  return tableOfText(text, language, refText, parseDeclarations);
}

/**
 * textDeclarations() of the file at `file` as an outline reads it: parsed on the other core when
 * the outline's worker got there first (tables-ahead.ts), else here.
 */
export function outlineDeclarations(file: string, text: string, language: SymbolLanguage, refText: string): Declaration[] {
  const ahead = tablesAhead();
  if (!ahead) return textDeclarations(text, language, refText);
  const taken = ahead.take(file, text);
  if (taken) {
    keepTable(text, language, taken);
    return taken;
  }
  return tableOfText(text, language, refText, parseDeclarations, () => ahead.missed(file));
}

/**
 * The table of `text`: kept on disk from an earlier run, else parsed (by `parse` here, or off the
 * thread; `beforeParse` told first) and kept.
 */
function tableOfText(
  text: string,
  language: SymbolLanguage,
  refText: string,
  parse: (text: string, grammar: Grammar) => Declaration[],
  beforeParse?: () => void,
): Declaration[] {
  const kept = keptTable(text, language);
  if (kept) return kept;
  beforeParse?.();
  let table: Declaration[];
  if (offThread) {
    table = offThread.parseSync(text, language);
  } else {
    const grammar = loadedGrammar(language);
    // A caller that did not load it (prepareSymbolRefs) gets an error for the ref, not a crash.
    if (!grammar) throw new RefError('grammar_not_loaded', `Symbol refs are not read here: the ${language.id} grammar is not loaded (${refText})`, refText);
    table = parse(text, grammar);
  }
  keepTable(text, language, table);
  return table;
}
