import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, RefcatError } from '../../shared/errors.js';
import { readTextFile, TextFileError } from '../safe-read/read-text-file.js';
import { BufferSource } from '../paging/byte-source.js';
import { type EntryMeta, Store } from '../paging/fd-store.js';
import { lineEndOfText } from '../safe-write/line-end.js';
import { safeWrite, type SafeWriteHooks, type SafeWriteOptions, type SafeWriteResult } from '../safe-write/safe-write.js';
import { parseResponseRefs, stripFence } from './parse-response-refs.js';

/** A ref as the commands see it, from a transcript or from the store. */
export interface RefItem {
  id: string;
  line: number;
  lines: number;
  chars: number;
  content: () => string;
  /** How the transcript's lines end (its first line's), for a ref of one line, which holds none. */
  lineEnd?: '\r\n' | '\n';
}

export interface RefSet {
  /** Where the refs come from: a transcript path, `stdin`, or the store folder. */
  from: string;
  refs: RefItem[];
  warnings: Diagnostic[];
}

/** The refs of a transcript's text. */
export function refsFromText(text: string, from: string): RefSet {
  const { refs, warnings } = parseResponseRefs(text);
  const lineEnd = lineEndOfText(text) ?? undefined;
  return {
    from,
    refs: refs.map((r) => ({ id: r.id, line: r.line, lines: r.lines, chars: r.chars, content: () => r.content, lineEnd })),
    warnings,
  };
}

/**
 * A transcript file's text; RefcatError when it cannot be read (docs/reference.md#reading-files),
 * naming the file as `file` reads, or as `shown` when the caller was given it another way.
 */
export function readTranscript(file: string, ctx: Context, shown = file): string {
  // An empty argument (an unset variable) would name the working folder.
  if (file === '') throw new RefcatError("No such file: '' (an empty path)", { code: 'not_found' });
  const abs = path.resolve(ctx.cwd, file);
  try {
    return readTextFile(abs);
  } catch (err) {
    if (!(err instanceof TextFileError)) throw err;
    if (err.code === 'not_found') throw new RefcatError(`No such file: ${shown}`, { code: 'not_found', details: [`Searched: ${abs}`] });
    if (err.code === 'is_directory') throw new RefcatError(`Is a directory: ${shown}`, { code: 'is_directory' });
    throw new RefcatError(`Cannot read ${shown}: ${err.problem}`, { code: err.code });
  }
}

/** The refs `ref scan` stored earlier. */
export function refsFromStore(store: Store): RefSet {
  const refs = store
    .list()
    .filter((m) => m.id.startsWith('ref:'))
    .map((m: EntryMeta) => ({
      id: m.id.slice(4),
      line: m.line ?? 0,
      lines: m.lines,
      chars: m.chars,
      content: () => {
        // Through the entry's open content: a scan replacing the ref meanwhile cannot pull it away.
        const entry = store.open(m.id);
        try {
          const src = entry.source();
          return src.bytes(0, src.size).toString('utf8');
        } finally {
          entry.close();
        }
      },
    }));
  return { from: store.dir, refs, warnings: [] };
}

export function findRef(set: RefSet, id: string): RefItem {
  const ref = set.refs.find((r) => r.id === id);
  if (ref) return ref;
  const known = set.refs.length > 0 ? `known: ${set.refs.map((r) => r.id).join(', ')}` : 'no refs there';
  throw new RefcatError(`Unknown ref id '${id}' in ${set.from} (${known})`, { code: 'unknown_ref' });
}

/** `ref scan`: store every ref of a transcript as `ref:ID`. */
export function scanRefs(set: RefSet, store: Store): EntryMeta[] {
  return set.refs.map((r) => store.putRef(r.id, r.content(), set.from, r.line, { bytes: Buffer.byteLength(r.content()), chars: r.chars, lines: r.lines }));
}

export interface ExportOptions extends SafeWriteOptions {
  /** A ref that is exactly one fenced code block exports the code inside the fence. */
  stripFence?: boolean;
}

/**
 * `ref export`: the ref's content, ending with a newline, written with the file safety of
 * docs/reference.md#writing-files-ref-export-and-fd-write. `--strip-fence` on a ref that is not one fenced block exports it whole, with a warning.
 */
export async function exportRef(
  ref: RefItem,
  opts: ExportOptions,
  ctx: Context,
  hooks: SafeWriteHooks = {},
): Promise<{ result: SafeWriteResult; lines: number; warnings: Diagnostic[] }> {
  const warnings: Diagnostic[] = [];
  let text = ref.content();
  if (opts.stripFence) {
    const code = stripFence(text);
    if (code === null) {
      warnings.push({ code: 'not_fenced', message: `Ref '${ref.id}' is not exactly one fenced code block: exported whole`, details: [] });
    } else {
      text = code;
    }
  }
  // Ended as its lines are: a CRLF answer's ref ends with CRLF, a ref of one line as the answer's lines do.
  if (text !== '' && !text.endsWith('\n')) text += lineEndOfText(text) ?? ref.lineEnd ?? '\n';
  const result = await safeWrite(new BufferSource(Buffer.from(text)), opts, ctx, hooks);
  return { result, lines: countLines(text), warnings };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text === '' || text.endsWith('\n') ? n : n + 1;
}
