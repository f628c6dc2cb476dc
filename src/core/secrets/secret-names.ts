import fs from 'node:fs';
import type { Declaration } from '../symbols/declaration.js';
import { mayHoldSecret } from './prefilter.js';
import { linesOf, marker, type RedactedSpan, type SecretFinding } from './redact.js';
import type { SecretScanner } from './secret-scan.js';

/**
 * Declaration names that are secrets (docs/refs.md#secrets), for what lists names rather than lines
 * (`refcat symbols`, the MCP `symbols` tool, the editor's completion after `#`): a name is a
 * secret's where a secret the scanner finds in the file covers any of its characters, written
 * whole on its declaration's name line; a path holding such a name (a member of a type named by a
 * secret) is redacted there too. A clean file costs the prefilter's pass over the text a listing
 * read for its table.
 */

/** A declaration's name and path as they may be shown: each secret's characters replaced by `[REDACTED <rule>]`. */
export interface RedactedName {
  name: string;
  path: string;
  /** The lines the secrets it held were found on. */
  lines: number[];
}

export interface SecretNames {
  /** By declaration index: only the declarations a secret is in. */
  redacted: Map<number, RedactedName>;
  /** Every finding of the file (its `kind` and lines, for warnings). */
  findings: SecretFinding[];
}

/** The file a table was read from: its text when the caller holds it (a version's, or as just read), else read here. */
export interface NamedFile {
  path: string;
  relPath: string;
  text?: string | null;
  /** Its verdict's key, apart from the disk's copy's (a version's: `path@commit`). */
  key?: string;
}

/** The declarations of `table` a secret in `file` is in, or null when there are none (or the scanner is off, or ignores the file). */
export function secretNames(file: NamedFile, table: readonly Declaration[], scanner: SecretScanner): SecretNames | null {
  if (!scanner.active || table.length === 0 || scanner.ignored(file.path)) return null;
  const json = file.relPath.toLowerCase().endsWith('.json');
  let text = file.text ?? null;
  if (text === null) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file.path);
    } catch {
      return null;
    }
    // Bytes read as latin1 go through the prefilter undecoded (prefilter.ts says why that holds).
    const latin1 = bytes.toString('latin1');
    if (!mayHoldSecret(latin1, json) || !namesMayHoldSecret(latin1, table, json)) return null;
    text = bytes.toString('utf8');
  } else if (!mayHoldSecret(text, json) || !namesMayHoldSecret(text, table, json)) return null;
  const lines = linesOf(text);
  const found = scanner.file(file.path, file.relPath, { lines, size: Buffer.byteLength(text) }, file.key ?? file.path);
  if (!found || 'tooLarge' in found || !found.spans) return null;
  const redacted = redactedNames(table, lines, found.spans);
  return redacted.size === 0 ? null : { redacted, findings: found.findings };
}

/**
 * Whether the prefilter lets the lines names are written on through. A secret on a name's line has
 * on that line the piece the prefilter looks for: tokens and URLs hold no line break, and an AWS
 * key's range starts at its value, on the line of its name; only a private key spans lines, and no
 * declaration is written inside one. So a file holding secrets elsewhere (or pieces of the rules'
 * patterns, as refcat's own sources do) is not scanned for a listing, and secretlint not loaded.
 */
function namesMayHoldSecret(text: string, table: readonly Declaration[], json: boolean): boolean {
  const wanted = new Set(table.map((d) => d.nameLine));
  let lines = '';
  for (let n = 1, at = 0; at <= text.length && wanted.size > 0; n++) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    if (wanted.delete(n)) lines += text.slice(at, end) + '\n';
    if (nl === -1) break;
    at = nl + 1;
  }
  return mayHoldSecret(lines, json);
}

/** The findings a listing of `names` reports: those on a line a name was cut on. */
export function findingsOf(names: SecretNames, listed: Iterable<RedactedName>): SecretFinding[] {
  const lines = new Set<number>();
  for (const n of listed) n.lines.forEach((l) => lines.add(l));
  return names.findings.filter((f) => [...lines].some((l) => l >= f.line && l <= f.endLine));
}

/** A character a name written in code may go on with: an occurrence inside a longer word is not the name. */
const WORD = /[\p{L}\p{N}_$]/u;

function redactedNames(table: readonly Declaration[], lines: readonly string[], spans: readonly RedactedSpan[]): Map<number, RedactedName> {
  const byLine = new Map<number, RedactedSpan[]>();
  for (const s of spans) {
    const list = byLine.get(s.line);
    if (list) list.push(s);
    else byLine.set(s.line, [s]);
  }
  // Each name a secret covers, as written, with what it reads redacted and where it was found.
  const secret = new Map<string, { text: string; line: number }>();
  for (const d of table) {
    const cut = byLine.get(d.nameLine);
    if (!cut) continue;
    for (const name of new Set([d.name, ...d.path.split('.')])) {
      if (secret.has(name)) continue;
      const text = redactedAt(name, lines[d.nameLine - 1] ?? '', cut);
      if (text !== null) secret.set(name, { text, line: d.nameLine });
    }
  }
  const out = new Map<number, RedactedName>();
  if (secret.size === 0) return out;
  // Longest first: a name that holds another is replaced whole.
  const names = [...secret.keys()].sort((a, b) => b.length - a.length);
  for (const d of table) {
    const used = new Set<number>();
    const swap = (part: string) => {
      const hit = secret.get(part);
      if (!hit) return part;
      used.add(hit.line);
      return hit.text;
    };
    let name = swap(d.name);
    let path = d.path.split('.').map(swap).join('.');
    // A name that is not a whole segment (one holding a dot) is still never shown.
    for (const n of names) {
      const hit = secret.get(n)!;
      if (name.includes(n) || path.includes(n)) used.add(hit.line);
      name = name.split(n).join(hit.text);
      path = path.split(n).join(hit.text);
    }
    if (name !== d.name || path !== d.path) out.set(d.index, { name, path, lines: [...used] });
  }
  return out;
}

/** `name` as written on `text` where a cut covers any of it, redacted as the line is; null where no cut touches it. */
function redactedAt(name: string, text: string, cut: readonly RedactedSpan[]): string | null {
  if (name === '') return null;
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const end = at + name.length;
    if (WORD.test(text[at - 1] ?? '') || WORD.test(text[end] ?? '')) continue;
    const over = cut.filter((c) => c.from < end && c.to > at).sort((a, b) => a.from - b.from);
    if (over.length === 0) continue;
    let out = '';
    let i = at;
    for (const c of over) {
      out += text.slice(i, Math.max(c.from, at)) + marker(c.rule);
      i = Math.min(c.to, end);
    }
    return out + text.slice(i, end);
  }
  return null;
}
