import type { SecretsMode } from '../secrets/secrets-mode.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { FdError, UsageError } from '../../shared/errors.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { readFd } from '../paging/fd-read.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { readTranscript, type RefSet, refsFromText } from '../response-refs/response-refs.js';
import { readTextFile } from '../safe-read/read-text-file.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { Confinement, outside } from '../safe-read/confinement.js';
import { hasGlobChars } from '../walk/glob.js';
import type { ConvReader } from '../workflow/load-conv.js';

// The arguments of refcat mcp's tools (docs/reference.md#refcat-mcp): confined, checked and
// turned into what the core functions take.

/** What the server knows: the root (also the working directory of every tool) and the store. */
export interface AgentContext {
  ctx: Context;
  /** `--store DIR`; else REFCAT_STORE, else the default, as for the CLI. */
  store?: string;
  /**
   * The server's `--secrets` (docs/agents.md#secrets): only the server sets it; no tool argument
   * can, so a call cannot turn the check off. Default: redact.
   */
  secrets?: SecretsMode;
}

/** The aliases of a call: an alias file under the root that leads outside is refused, not read. */
export function aliasesOf(ctx: Context): AliasResolver {
  return new AliasResolver(ctx, { confine: new Confinement(ctx.cwd) });
}

/** A ref's path must not name a place outside before anything is read (globs are checked per file after). */
export function checkRefText(ref: string, confinement: Confinement): void {
  const spec = parseRef(ref);
  if (spec.alias !== null) {
    if (spec.path.split(/[\\/]/).includes('..') || path.isAbsolute(spec.path)) throw outside(ref, confinement.root);
    return;
  }
  if (hasGlobChars(spec.path)) {
    if (spec.path.split(/[\\/]/).includes('..') || path.isAbsolute(spec.path)) throw outside(ref, confinement.root);
    return;
  }
  if (!confinement.allows(spec.path)) throw outside(ref, confinement.root);
}

/**
 * A workflow reader that refuses files outside the root and the alias targets: an INCLUDE leading
 * out becomes the including file's `include_unreadable` error, and the file is never read.
 */
export function confinedReader(confinement: Confinement): ConvReader {
  return (abs) => {
    if (!confinement.allows(abs)) throw new Error(`refused: outside the root ${confinement.root} (and every alias target)`);
    return readTextFile(abs);
  };
}

export function checkPathText(p: string, confinement: Confinement): void {
  if (p.split(/[\\/]/).includes('..') || (path.isAbsolute(p) && !confinement.allows(p))) throw outside(p, confinement.root);
  if (!hasGlobChars(p) && !confinement.allows(p)) throw outside(p, confinement.root);
}

/**
 * fd_read reads files, not pipes: a FIFO or socket could hold the call (and the agent) for ever,
 * and a device may never end. A folder is left to readFd, which says so.
 */
export function regularOrFolder(abs: string, given: string): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    // No file of that name: a ref (`@src/app.py#L1-L3`, `src/app.py#/def main/`) or a glob, read
    // as the CLI's `fd read` reads it, relative to the root, each file it reaches judged.
    return given;
  }
  if (st.isFile() || st.isDirectory()) return abs;
  const what = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
  throw new FdError('not_regular', given, `Not a regular file: ${given} (${what}; fd_read pages files, and takes other content as text)`, 'path');
}

/** A path as a literal gitignore-style rule: every character that would be a pattern is escaped. */
export function escapeRule(rel: string): string {
  return rel.split(path.sep).join('/').replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);
}

export function checkHandle(id: string): string {
  if (!/^(fd:\d+|ref:[A-Za-z0-9_.:-]+)$/.test(id)) throw new UsageError(`Not an fd: ${id} (expected fd:N or ref:ID; a file is read with path)`);
  return id;
}

/** `fd_read {"fd":"fd:1","page":2}`: the call that reads page 2 (a file is read in place, by its path). */
export function nextCall(source: { path: string } | { fd: string }, pageSize: number | undefined): string {
  return `fd_read ${JSON.stringify({ ...source, page: 2, ...(pageSize !== undefined ? { page_size: pageSize } : {}) })}`;
}

export function oneSource(args: { text?: string; path?: string; fd?: string }): 'text' | 'path' | 'fd' {
  const given = (['text', 'path', 'fd'] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) throw new UsageError(`Give exactly one of text, path and fd (got ${given.length === 0 ? 'none' : given.join(' and ')})`);
  return given[0]!;
}

export async function loadRefs(args: { text?: string; path?: string; fd?: string }, agent: AgentContext): Promise<RefSet> {
  const { ctx } = agent;
  const given = oneSource(args);
  if (given === 'text') return refsFromText(args.text!, 'text');
  if (given === 'path') {
    const abs = confinementOf(ctx, aliasesOf(ctx)).checkRead(args.path!);
    return refsFromText(readTranscript(abs, ctx, args.path!), args.path!);
  }
  const view = await readFd({ source: checkHandle(args.fd!), all: true, store: agent.store }, ctx, toAsync([]));
  let text = '';
  try {
    for (const block of view.text) text += block;
  } finally {
    view.close();
  }
  return refsFromText(text, args.fd!);
}

export function lineRange(s: string): { start: number; end: number | null } {
  const m = /^(\d+)(?:-(\d*))?$/.exec(s)!;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : m[2] === '' ? null : Number(m[2]);
  if (start < 1 || (end !== null && end < start)) throw new UsageError(`Invalid line range: ${s}`);
  return { start, end };
}

export async function* toAsync(items: Iterable<string>): AsyncIterable<string> {
  yield* items;
}

export function chunksText(chunks: readonly { stream: string; text: string }[]): string {
  return chunks.map((c) => c.text).join('');
}


/** Whether a `--suggest-fixes` suggestion (`@path#sel`, `alias:path#sel`) names a file the agent may read. */
export function suggestionInside(suggestion: string, root: string, aliases: AliasResolver, confinement: Confinement): boolean {
  try {
    const spec = parseRef(suggestion);
    const target = spec.alias ? aliases.lookup(spec.alias)?.target : root;
    return target !== undefined && confinement.allows(path.resolve(target, spec.path));
  } catch {
    return false;
  }
}

export interface ExportArgs {
  text?: string;
  path?: string;
  fd?: string;
  id: string;
  to: string;
  mode?: 'write' | 'append' | 'insert';
  line?: number;
  after?: string;
  force?: boolean;
  strip_fence?: boolean;
}

/** ref_export's mode and `after` regex, as `ref export` maps its flags: `line` and `after` imply insert. */
export function exportPlacement(args: ExportArgs): { mode: 'write' | 'append' | 'insert'; after: RegExp | undefined } {
  const inserting = args.line !== undefined || args.after !== undefined;
  if (args.line !== undefined && args.after !== undefined) throw new UsageError('Give either line or after, not both');
  if (inserting && args.mode && args.mode !== 'insert') throw new UsageError(`line and after insert; they do not go with mode ${args.mode}`);
  const mode = args.mode ?? (inserting ? 'insert' : 'write');
  if (mode === 'insert' && !inserting) throw new UsageError('mode insert needs line N or after /regex/');
  return { mode, after: args.after === undefined ? undefined : afterRegex(args.after) };
}

/** `after`: "/regex/flags" or a bare regex, as the CLI's `--after` reads it (src/cli/options.ts). */
function afterRegex(value: string): RegExp {
  if (value === '' || value === '//') throw new UsageError('Invalid after: an empty regex');
  const m = /^\/(.+)\/([dgimsuy]*)$/s.exec(value);
  try {
    return m ? new RegExp(m[1]!, m[2]!.replace(/[gy]/g, '')) : new RegExp(value);
  } catch (err) {
    throw new UsageError(`Invalid after: ${(err as Error).message}`);
  }
}

/**
 * A message of the CLI's in the words of a tool's arguments (docs/reference.md#refcat-mcp): a flag
 * the tool has as an argument is named as that argument (`--to` is `to`, `--page-size` is
 * `page_size`, `--lines 3-9` is `lines "3-9"`); other flags are left as they are.
 */
export function argumentWords(message: string, args: readonly string[]): string {
  return message
    .replace(/\(use --force to overwrite\)/g, (m) => (args.includes('force') ? '(pass force: true to overwrite)' : m))
    .replace(/--lines (\d+-\d*)/g, (m, range: string) => (args.includes('lines') ? `lines "${range}"` : m))
    .replace(/(?<![\w-])--([a-z][a-z-]*)/g, (m, flag: string) => {
      const name = flag.replace(/-/g, '_');
      return args.includes(name) ? name : m;
    });
}

/** The findings of a report (validate, verify_refs) in the words of the tool's arguments, in place. */
export function inArgumentWords(findings: readonly { message: string; details: string[] }[], args: readonly string[]): void {
  for (const f of findings) {
    f.message = argumentWords(f.message, args);
    f.details = f.details.map((d) => argumentWords(d, args));
  }
}
