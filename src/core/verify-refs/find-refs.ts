/**
 * The find stage of `verify refs` (docs/design/verify-refs.md#the-pipeline): a doc's text read once,
 * its refs and cited snippets found, and handed on as a list of plain values, each with the
 * folders it is looked up in.
 */
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import type { Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import { MAX_TEXT_FILE_BYTES, readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { findDocRefs } from '../doc-refs/find-doc-refs.js';
import type { Citation } from '../snippets/find-citations.js';
import { docCitations } from '../snippets/judge-snippets.js';

/** Docs are read whole; a file this large is a data file or a log, not documentation. */
const MAX_DOC_BYTES = MAX_TEXT_FILE_BYTES;

/** A ref found in a doc, ready to check: where it stands, what to resolve, where to look. */
export interface FoundRef {
  line: number;
  /** The ref as the doc writes it. */
  text: string;
  /** The ref as it is resolved. */
  ref: string;
  dirs: string[];
  /** The snippet it cites, if any: judged once the ref resolves. */
  citation?: Citation;
}

/**
 * A doc's byte text (shared/byte-text.ts), or null with a finding: binary, not UTF-8 or too large
 * is not a doc, not scanned, with a warning (so --strict fails); anything else fails the run.
 */
export function readDoc(file: string, ctx: Context, findings: Finding[]): string | null {
  try {
    return readTextFile(file, MAX_DOC_BYTES, { bytes: true });
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    const skip = err.code === 'too_large' || err.code === 'binary';
    const problem = err.code === 'binary' ? 'is binary or not UTF-8' : err.problem;
    const message = `${skip ? 'Not scanned' : 'Cannot read'}: ${shownPath(ctx.cwd, file)} ${problem}`;
    findings.push({ severity: skip ? 'warning' : 'error', code: skip ? err.code : 'unreadable', message, details: [], file, line: null });
    return null;
  }
}

/**
 * Every ref of a doc's text in line order: the scan's refs and the cited snippets' refs. A doc's
 * relative ref is looked up in its folder, then the folder scanned, then cwd; a bare path
 * (embedme's citations) from the folder scanned first.
 */
export function findRefs(
  file: string,
  root: string,
  text: string,
  ctx: Context,
  aliases: { resolver: AliasResolver; isKnownAlias: (name: string) => boolean },
): FoundRef[] {
  const { resolver, isKnownAlias } = aliases;
  const dir = path.dirname(file);
  const searchDirs = [...new Set([dir, root, ctx.cwd])];
  const bareDirs = [...new Set([root, dir, ctx.cwd])];
  const cited = /\.(md|markdown)$/i.test(file) ? docCitations(text, bareDirs, isKnownAlias, true) : null;
  const refs = findDocRefs(text, {
    bytes: true,
    markdown: /\.(md|markdown|txt)$/i.test(file),
    isKnownAlias,
    reportUnknownAlias: (name) => resolver.mayBeAlias(name),
    ...(cited ? { fenced: cited.fenced } : {}),
  });
  // A caption's ref is found by the scan too (it is outside the fence): it is checked once, as a citation.
  const captions = new Map<string, Citation>();
  const own: Citation[] = [];
  for (const c of cited?.citations ?? []) {
    if (c.form === 'caption' && !c.bare) captions.set(`${c.line}\0${c.text}`, c);
    else own.push(c);
  }
  const all: FoundRef[] = [
    ...refs.map((r) => ({ line: r.line, text: r.text, ref: r.ref, dirs: searchDirs, citation: captions.get(`${r.line}\0${r.text}`) })),
    ...own.map((c) => ({ line: c.line, text: c.text, ref: c.ref, dirs: c.bare ? bareDirs : searchDirs, citation: c })),
  ];
  if (own.length > 0) all.sort((a, b) => a.line - b.line);
  return all;
}
