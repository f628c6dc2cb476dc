import fs from 'node:fs';
import path from 'node:path';
import { RefError } from '../../shared/errors.js';
import type { Declaration } from './declaration.js';
import { type Grammar, loadedGrammar, loadGrammar } from './grammar-loader.js';
import { MAX_SYMBOL_FILE_BYTES, type SymbolLanguage, symbolExtensions, symbolLanguageOf } from './languages.js';
import { readDeclarations } from './read-declarations.js';

/**
 * A file's declaration table (docs/symbols.md#the-declaration-table). Tables are cached by path,
 * modification time and size; trees are deleted as soon as they are read, since the WebAssembly
 * heap grows with the largest file parsed and never shrinks.
 */

/** The declarations of `text`, parsed with a loaded grammar. */
export function parseDeclarations(text: string, grammar: Grammar): Declaration[] {
  const tree = grammar.parser.parse(text);
  if (!tree) return [];
  try {
    return readDeclarations(tree.rootNode, grammar.definitions);
  } finally {
    tree.delete();
  }
}

const MAX_CACHED_TABLES = 512;
const tables = new Map<string, { mtimeMs: number; size: number; table: Declaration[] }>();

/** The grammar that reads `file`, or a RefError naming the languages that have one. */
export function symbolLanguageFor(file: string, refText: string): SymbolLanguage {
  const language = symbolLanguageOf(file);
  if (language) return language;
  const ext = path.extname(file) || path.basename(file);
  throw new RefError('no_parser', `No parser for '${ext}' files; symbol refs work in: ${symbolExtensions()}`, refText);
}

/**
 * The declaration table of the file at `abs`, synchronously: its grammar must have been loaded
 * (loadGrammars(), or prepareSymbolRefs() for a list of refs). Throws RefError: no grammar for the
 * file's extension, the file too large, unreadable.
 */
export function fileDeclarations(abs: string, refText: string): Declaration[] {
  const language = symbolLanguageFor(abs, refText);
  const grammar = loadedGrammar(language);
  // A caller that did not load it (prepareSymbolRefs) gets an error for the ref, not a crash.
  if (!grammar) throw new RefError('grammar_not_loaded', `Symbol refs are not read here: the ${language.id} grammar is not loaded (${refText})`, refText);
  return tableOf(abs, refText, grammar);
}

/** fileDeclarations(), loading the grammar first. */
export async function loadFileDeclarations(abs: string, refText: string): Promise<Declaration[]> {
  const grammar = await loadGrammar(symbolLanguageFor(abs, refText));
  return tableOf(abs, refText, grammar);
}

function tableOf(abs: string, refText: string, grammar: Grammar): Declaration[] {
  const stat = fs.statSync(abs);
  if (stat.size > MAX_SYMBOL_FILE_BYTES) {
    const mib = (stat.size / (1024 * 1024)).toFixed(1);
    throw new RefError('too_large', `${refText} is too large for symbol refs (${mib} MiB; at most 1 MiB)`, refText);
  }
  const cached = tables.get(abs);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.table;
  const table = parseDeclarations(fs.readFileSync(abs, 'utf8'), grammar);
  if (tables.size >= MAX_CACHED_TABLES) tables.delete(tables.keys().next().value!);
  tables.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, table });
  return table;
}

/** The declarations of source text in a language (for callers holding text, not a file: an editor's buffer). */
export async function declarationsOfText(text: string, language: SymbolLanguage): Promise<Declaration[]> {
  return parseDeclarations(text, await loadGrammar(language));
}
