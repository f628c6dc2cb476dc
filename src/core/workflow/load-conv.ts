import fs from 'node:fs';
import path from 'node:path';
import { RefError } from '../../shared/errors.js';
import { parseConv } from './parse-conv.js';
import type { ConvDirective, ConversationFile, ConvProblem } from './conv-types.js';

/** Reads a file as UTF-8 text; throws Node's errors (ENOENT, EISDIR, EACCES, ...). */
export type ConvReader = (absPath: string) => string;

export interface LoadConvOptions {
  /** Injectable for tests; default fs.readFileSync(path, 'utf8'). */
  readFile?: ConvReader;
  /** How a path is shown in messages (default: relative to the top-level file's folder). */
  display?: (absPath: string) => string;
}

const fsReader: ConvReader = (p) => fs.readFileSync(p, 'utf8');

/**
 * Read and parse a `.conv` file, splicing every INCLUDE'd file in right after its INCLUDE
 * directive (docs/reference.md#the-conv-format: the path is relative to the including file). A missing, unreadable or
 * cyclic INCLUDE is a problem of the including file, at the INCLUDE's line; a file may be
 * included twice from different places (only a file including itself, directly or not, is a
 * cycle). Throws RefError only when the top-level file itself cannot be read.
 */
export function loadConv(file: string, options: LoadConvOptions = {}): ConversationFile {
  const top = path.resolve(file);
  const read = options.readFile ?? fsReader;
  const display = options.display ?? ((p: string) => path.relative(path.dirname(top), p) || path.basename(p));
  let text: string;
  try {
    text = read(top);
  } catch (err) {
    throw new RefError('unreadable', `Cannot read ${display(top)}: ${reason(err)}`, display(top));
  }
  const out: ConversationFile = { path: top, directives: [], blocks: [], files: [], problems: [] };
  splice(out, parseConv(text, { file: top }), [top], read, display, null);
  return out;
}

function splice(
  out: ConversationFile,
  conv: ConversationFile,
  stack: string[],
  read: ConvReader,
  display: (p: string) => string,
  outerBlock: number | null,
): void {
  const blockBase = out.blocks.length;
  const moved = new Map<ConvDirective, ConvDirective>();
  out.files.push(...conv.files);
  out.blocks.push(...conv.blocks.map((b) => ({ ...b })));
  out.problems.push(...conv.problems);
  for (const d of conv.directives) {
    const m: ConvDirective = { ...d, block: d.block === null ? outerBlock : d.block + blockBase };
    moved.set(d, m);
    out.directives.push(m);
    if (d.name === 'INCLUDE') include(out, m, stack, read, display);
  }
  // A block's RUN is one of the directives just moved: point it at the moved one.
  for (const b of out.blocks.slice(blockBase, blockBase + conv.blocks.length)) b.run = b.run && (moved.get(b.run) ?? b.run);
}

function include(
  out: ConversationFile,
  d: ConvDirective,
  stack: string[],
  read: ConvReader,
  display: (p: string) => string,
): void {
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
  let text: string;
  try {
    text = read(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      problem('include_not_found', `INCLUDE file not found: ${d.value}`, [`Searched: ${target}`]);
    } else {
      problem('include_unreadable', `Cannot read INCLUDE file ${d.value}: ${reason(err)}`);
    }
    return;
  }
  splice(out, parseConv(text, { file: target }), [...stack, target], read, display, d.block);
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'no such file';
  return (err as Error).message;
}
