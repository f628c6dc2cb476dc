import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Declaration, SymbolKind } from './declaration.js';
import { grammarStamp, readQuery } from './grammar-loader.js';
import type { SymbolLanguage } from './languages.js';
import { tableCacheFolder } from './table-cache-folder.js';
import { lazyRequire } from '../../shared/lazy.js';

// Required when a table is first kept or looked for: an outline's parse worker only parses, and
// loading node:crypto is 10 ms of a worker's start (docs/design/symbols.md#an-outline-on-two-cores).
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

/**
 * Declaration tables kept on disk between runs (docs/symbols.md#the-table-cache): a symbol ref
 * into a file whose text this build of refcat has parsed before reads the table back instead of
 * parsing and matching the definitions query, most of a cold symbol ref's time.
 *
 * - Keyed by a SHA-256 of the text itself, the language, its definitions query, the grammar file
 *   and the build of refcat (size and modification time of the code that reads tables): a table
 *   is only found for the very bytes, query and code that made it, so a stale one cannot be read.
 * - Invisible when wrong: an entry that cannot be read, does not parse or is not a well-formed
 *   table is a miss (and removed); a write that fails is dropped. Nothing is reported.
 * - Bounded: at most MAX_ENTRIES files, least recently used removed first, once a process that
 *   wrote; a table over MAX_ENTRY_BYTES is not kept.
 */

/** The format of an entry; a new one makes every older entry a miss. */
const FORMAT = 1;
const MAX_ENTRIES = 2000;
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;

let pruned = false;
/** Whether the folder may be trusted, once asked (null: not yet), for the folder of `seen`. */
let trusted: boolean | null = null;
let seen = -1;
const stamps = new Map<string, string>();

export { tableCacheDir, useTableCache } from './table-cache-folder.js';

/**
 * The folder, if no one else can write in it: made here (mode 0700), or one of the user's that
 * group and others cannot write to. A folder another user could write to (a shared
 * `SDQCTL_HOME`) could hold planted tables: then nothing is kept or read.
 */
function cacheDir(): string | null {
  const { folder: dir, generation } = tableCacheFolder();
  if (generation !== seen) {
    seen = generation;
    trusted = null;
    pruned = false;
  }
  if (dir === null) return null;
  if (trusted === null) {
    try {
      const stat = fs.statSync(dir);
      const uid = os.userInfo().uid;
      trusted = stat.isDirectory() && (stat.mode & 0o022) === 0 && (uid === -1 || stat.uid === uid);
    } catch (err) {
      // Not there yet: keepTable() makes it, readable by the user only. Not remembered: someone
      // else may make it first, so it is checked again once it is there.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return dir;
      trusted = false;
    }
  }
  return trusted ? dir : null;
}

/**
 * The table kept for `text`, or null (no cache, not kept, or not readable as a table). With
 * `names` (sorted, each once), the table of the declarations a symbol ref written with those
 * names can resolve to (declaration-table.ts), kept apart from the whole table.
 */
export function keptTable(text: string, language: SymbolLanguage, names?: readonly string[]): Declaration[] | null {
  const dir = cacheDir();
  if (dir === null) return null;
  const file = entryFile(dir, text, language, names);
  if (file === null) return null;
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const table = tableOf(raw, language.id, names);
  if (table === null) {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Read-only: still a miss, never an error.
    }
    return null;
  }
  // Used now: the last to be removed when the cache is pruned.
  const now = new Date();
  try {
    fs.utimesSync(file, now, now);
  } catch {
    // Read-only: the entry is still good.
  }
  return table;
}

/**
 * Keep `table`, the declarations of `text` (with `names`, those a ref written with them can
 * resolve to), for later runs. Its lines are read now if they were left lazy.
 */
export function keepTable(text: string, language: SymbolLanguage, table: readonly Declaration[], names?: readonly string[]): void {
  const dir = cacheDir();
  if (dir === null) return;
  const file = entryFile(dir, text, language, names);
  if (file === null) return;
  const json = JSON.stringify({ format: FORMAT, language: language.id, ...(names ? { names } : {}), rows: table.map(rowOf) });
  if (json.length > MAX_ENTRY_BYTES) return;
  const tmp = `${file}.${crypto().randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Made here, or by someone else meanwhile: used only if it passes the check now that it is there.
    if (cacheDir() !== dir) return;
    fs.writeFileSync(tmp, json, { mode: 0o600 });
    // Atomic: a reader sees the whole entry or none, whatever another process writes at once.
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
    return;
  }
  if (!pruned) {
    pruned = true;
    prune(dir, MAX_ENTRIES);
  }
}

/** Remove the least recently used entries past `max` (down to three quarters of it), and stray temporary files. */
export function prune(folder: string, max: number): void {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  if (names.length <= max) return;
  const entries: { file: string; used: number }[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      entries.push({ file, used: fs.statSync(file).mtimeMs });
    } catch {
      // Removed by another process meanwhile.
    }
  }
  entries.sort((a, b) => a.used - b.used);
  for (const e of entries.slice(0, entries.length - Math.floor((max * 3) / 4))) {
    try {
      fs.rmSync(e.file, { force: true });
    } catch {
      // A folder, or not ours to remove: pruning is best effort, never an error of the symbol ref.
    }
  }
}

function entryFile(folder: string, text: string, language: SymbolLanguage, names: readonly string[] | undefined): string | null {
  const stamp = stampOf(language);
  if (stamp === null) return null;
  const hash = crypto().createHash('sha256').update(stamp).update('\0').update(text);
  if (names) hash.update('\0names\0').update(JSON.stringify(names));
  const key = hash.digest('hex');
  return path.join(folder, `${key}.json`);
}

/**
 * What else a table depends on besides the text: the entry format, the language, its definitions
 * query, the grammar's file and the code that reads tables (the bundle, or these modules). null
 * when one of them cannot be read: then nothing is kept.
 */
function stampOf(language: SymbolLanguage): string | null {
  let stamp = stamps.get(language.id);
  if (stamp === undefined) {
    try {
      const here = path.dirname(fileURLToPath(import.meta.url));
      const code = [fileURLToPath(import.meta.url), ...['read-declarations', 'named-nodes', 'type-tests', 'query-text', 'query-walk', 'languages', 'declaration-table'].flatMap((m) => [`${m}.js`, `${m}.ts`].map((f) => path.join(here, f)))]
        .filter((f) => fs.existsSync(f))
        .map((f) => {
          const s = fs.statSync(f);
          return `${f}:${s.size}:${s.mtimeMs}`;
        });
      stamp = [FORMAT, language.id, grammarStamp(language), ...code, readQuery(language.query ?? language.id)].join('\n');
    } catch {
      return null;
    }
    stamps.set(language.id, stamp);
  }
  return stamp;
}

const KIND_NAMES: readonly SymbolKind[] = [
  'function', 'method', 'class', 'struct', 'enum', 'interface', 'protocol', 'trait', 'object', 'type',
  'module', 'constant', 'variable', 'property', 'field', 'enum_case', 'extension',
];
const KIND_NUMBERS = new Map(KIND_NAMES.map((k, i) => [k, i]));

/** A declaration as an entry keeps it: its fields in a row, the kind by number (a third of the size of objects). */
type Row = [path: string, name: string, kind: number, startLine: number, declLine: number, nameLine: number, endLine: number, bodyStart: number | null, parent: number | null];

function rowOf(d: Declaration): Row {
  return [d.path, d.name, KIND_NUMBERS.get(d.kind)!, d.startLine, d.declLine, d.nameLine, d.endLine, d.bodyStart, d.parent];
}

/** The table in an entry's text, or null unless every declaration in it is well formed. */
function tableOf(raw: string, languageId: string, names: readonly string[] | undefined): Declaration[] | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  const entry = data as { format?: unknown; language?: unknown; names?: unknown; rows?: unknown };
  if (typeof data !== 'object' || data === null || entry.format !== FORMAT || entry.language !== languageId || !Array.isArray(entry.rows)) return null;
  if (JSON.stringify(entry.names) !== JSON.stringify(names)) return null;
  const rows = entry.rows as unknown[];
  const line = (n: unknown) => Number.isInteger(n) && (n as number) >= 1;
  const table: Declaration[] = [];
  for (let index = 0; index < rows.length; index++) {
    const r = rows[index];
    if (!Array.isArray(r) || r.length !== 9) return null;
    const [path, name, kind, startLine, declLine, nameLine, endLine, bodyStart, parent] = r as unknown[];
    if (typeof path !== 'string' || typeof name !== 'string' || typeof kind !== 'number' || KIND_NAMES[kind] === undefined) return null;
    if (!line(startLine) || !line(declLine) || !line(nameLine) || !line(endLine) || (bodyStart !== null && !line(bodyStart))) return null;
    if (parent !== null && !(Number.isInteger(parent) && (parent as number) >= 0 && (parent as number) < index)) return null;
    table.push({ index, path, name, kind: KIND_NAMES[kind]!, startLine: startLine as number, declLine: declLine as number, nameLine: nameLine as number, endLine: endLine as number, bodyStart: bodyStart as number | null, parent: parent as number | null });
  }
  return table;
}
