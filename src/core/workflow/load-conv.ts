import path from 'node:path';
import { RefError, UsageError } from '../../shared/errors.js';
import { readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { parseConv } from './parse-conv.js';
import type { ConvDirective, ConversationFile, ConvProblem } from './conv-types.js';

/** Reads a file as UTF-8 text; throws TextFileError or Node's errors (ENOENT, EISDIR, EACCES, ...). */
export type ConvReader = (absPath: string) => string;

export interface LoadConvOptions {
  /** Injectable for tests; default readTextFile (regular text files of bounded size only). */
  readFile?: ConvReader;
  /** How a path is shown in messages (default: relative to the top-level file's folder). */
  display?: (absPath: string) => string;
  /** The folder a relative `file` is relative to (the caller's working directory). */
  cwd?: string;
}

const fsReader: ConvReader = (p) => readTextFile(p);

/**
 * Read and parse a `.conv` file, splicing every INCLUDE'd file in right after its INCLUDE
 * directive (docs/reference.md#the-conv-format: the path is relative to the including file). A missing, unreadable or
 * cyclic INCLUDE is a problem of the including file, at the INCLUDE's line; a file may be
 * included twice from different places (only a file including itself, directly or not, is a
 * cycle), and is spliced in once, where it is first included. Throws RefError only when the
 * top-level file itself cannot be read.
 */
export function loadConv(file: string, options: LoadConvOptions = {}): ConversationFile {
  // Never the process's working directory: a library caller's cwd is options.cwd.
  if (options.cwd === undefined && !path.isAbsolute(file)) {
    throw new UsageError(`loadConv: '${file}' is relative; pass an absolute path or options.cwd`);
  }
  const top = options.cwd === undefined ? path.normalize(file) : path.resolve(options.cwd, file);
  const read = options.readFile ?? fsReader;
  const display = options.display ?? ((p: string) => path.relative(path.dirname(top), p) || path.basename(p));
  let text: string;
  try {
    text = read(top);
  } catch (err) {
    throw new RefError('unreadable', `Cannot read ${display(top)}: ${reason(err)}`, display(top));
  }
  const out: ConversationFile = { path: top, directives: [], blocks: [], files: [], problems: [] };
  splice(out, parseConv(text, { file: top }), [top], { read, display, expanded: new Set([top]) }, null);
  return out;
}

/** What every level of INCLUDE expansion shares. */
interface Expansion {
  read: ConvReader;
  display: (p: string) => string;
  /** Files spliced in already: each is expanded once, so a diamond of INCLUDEs stays linear. */
  expanded: Set<string>;
}

/** INCLUDEs nested deeper than this are an error (no workflow needs it; recursion has a limit). */
export const MAX_INCLUDE_DEPTH = 64;

function splice(out: ConversationFile, conv: ConversationFile, stack: string[], x: Expansion, outerBlock: number | null): void {
  const blockBase = out.blocks.length;
  const moved = new Map<ConvDirective, ConvDirective>();
  out.files.push(...conv.files);
  out.blocks.push(...conv.blocks.map((b) => ({ ...b })));
  out.problems.push(...conv.problems);
  for (const d of conv.directives) {
    const m: ConvDirective = { ...d, block: d.block === null ? outerBlock : d.block + blockBase };
    moved.set(d, m);
    out.directives.push(m);
    if (d.name === 'INCLUDE') include(out, m, stack, x);
  }
  // A block's RUN is one of the directives just moved: point it at the moved one.
  for (const b of out.blocks.slice(blockBase, blockBase + conv.blocks.length)) b.run = b.run && (moved.get(b.run) ?? b.run);
}

function include(out: ConversationFile, d: ConvDirective, stack: string[], x: Expansion): void {
  const { read, display } = x;
  const problem = (code: string, message: string, details: string[] = []): void => {
    const p: ConvProblem = { severity: 'error', code, message, details, file: d.file, line: d.line };
    out.problems.push(p);
  };
  if (d.value === '') {
    problem('include_not_found', 'INCLUDE needs a file path');
    return;
  }
  const target = path.resolve(path.dirname(d.file), d.value);
  if (stack.includes(target)) {
    const chain = [...stack.slice(stack.indexOf(target)), target].map(display).join(' -> ');
    problem('include_cycle', `INCLUDE cycle: ${chain}`);
    return;
  }
  // Included before, from another place: its directives are in already, and checked once.
  if (x.expanded.has(target)) return;
  if (stack.length >= MAX_INCLUDE_DEPTH) {
    problem('include_too_deep', `INCLUDE nested deeper than ${MAX_INCLUDE_DEPTH} levels: ${d.value}`);
    return;
  }
  x.expanded.add(target);
  let text: string;
  try {
    text = read(target);
  } catch (err) {
    const code = err instanceof TextFileError ? (err.code === 'not_found' ? 'ENOENT' : err.code) : (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      problem('include_not_found', `INCLUDE file not found: ${d.value}`, [`Searched: ${target}`]);
    } else {
      problem('include_unreadable', `Cannot read INCLUDE file ${d.value}: ${reason(err)}`);
    }
    return;
  }
  const quoteText = target.toLowerCase().endsWith('.conv');
  splice(out, parseConv(text, { file: target, quoteText }), [...stack, target], x, d.block);
}

function reason(err: unknown): string {
  if (err instanceof TextFileError) return err.problem;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'no such file';
  return (err as Error).message;
}
