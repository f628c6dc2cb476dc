import fs from 'node:fs';
import path from 'node:path';
import { readRules, RuleSet } from '../walk/gitignore.js';
import { mayHoldSecret } from './prefilter.js';
import { type Redaction, type RedactedSpan, redactLines, type SecretFinding } from './redact.js';
import { lintText } from './secret-rules.js';

export type { Redaction, SecretFinding } from './redact.js';

import type { SecretsMode } from './secrets-mode.js';

export { SECRETS_MODES, type SecretsMode } from './secrets-mode.js';

/** A text with its secrets redacted, and what was found where. */
export interface RedactedText {
  /** The lines, without terminators, each secret replaced by `[REDACTED <rule>]`. */
  lines: string[];
  redactions: Redaction[];
  findings: SecretFinding[];
  /** Where each line was cut, in the columns of the text scanned (a selection's redaction has none). */
  spans?: RedactedSpan[];
}

/** A file's verdict: null (nothing found, or not scanned), its redacted lines, or too large to redact. */
export type FileSecrets = (RedactedText & { size: number }) | { tooLarge: true } | null;

/**
 * Files above this are not scanned whole (their redacted lines would be held in memory): only what
 * is selected of them is, as a text of its own (docs/refs.md#secrets).
 */
export const MAX_REDACTED_FILE_BYTES = 64 * 1024 * 1024;
/** docs/reference.md#reading-files: a NUL byte in the first 8 KiB makes a file binary (not scanned: not printed). */
const BINARY_SNIFF = 8 * 1024;
/**
 * Bytes the prefilter reads at a time: under V8's large-object size, so each chunk's string dies
 * young; 1 MiB chunks went to the large-object space and raised a server's peak by 24 MiB on a
 * 60 MB file (test/hostile/bounded-memory.test.ts).
 */
const CHUNK = 64 * 1024;
/** Longest piece the prefilter needs to see whole (its longest fixed piece is under 100 characters). */
const OVERLAP = 4096;

/**
 * The secret check of one command: its mode, its `.secretlintignore`, and each file's verdict,
 * found once per command.
 */
export class SecretScanner {
  private readonly verdicts = new Map<string, FileSecrets>();
  /** `.secretlintignore`, read when the first file is scanned (undefined: not yet). */
  private ignore: { root: string; rules: RuleSet } | null | undefined;

  /** `root`: the folder whose `.secretlintignore` applies (secretlint reads it from its working folder). */
  constructor(
    readonly mode: SecretsMode,
    private readonly root: string | null = null,
  ) {}

  /** Whether content is scanned at all. */
  get active(): boolean {
    return this.mode !== 'allow';
  }

  /** Whether `.secretlintignore` names the file `abs` (or a folder it is in). */
  ignored(abs: string): boolean {
    if (this.ignore === undefined) {
      const rules = this.root === null ? [] : readRules(path.join(this.root, '.secretlintignore'));
      this.ignore = rules.length === 0 || this.root === null ? null : { root: this.root, rules: RuleSet.of(rules) };
    }
    if (!this.ignore) return false;
    const rel = path.relative(this.ignore.root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    const parts = rel.split(path.sep);
    for (let i = 1; i <= parts.length; i++) {
      if (this.ignore.rules.lastMatch(parts.slice(0, i).join('/'), i < parts.length)) return true;
    }
    return false;
  }

  /**
   * The secrets in the file `abs`, found on its whole text (docs/refs.md#secrets). `held`: its lines,
   * when the caller has them already. Null when the file is clean, ignored, or not a file whose
   * text refcat prints (the read that follows reports that).
   */
  file(abs: string, name: string, held?: { lines: readonly string[]; size: number }, key = abs): FileSecrets {
    if (!this.active || this.ignored(abs)) return null;
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      verdict = held ? this.heldVerdict(held, name) : scanFile(abs, name);
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }

  /**
   * file(), for a file the caller read whole as UTF-8 text (an outline's read): the same verdict,
   * found on that text rather than on a read of its own.
   */
  text(abs: string, name: string, text: string): FileSecrets {
    if (!this.active || this.ignored(abs)) return null;
    let verdict = this.verdicts.get(abs);
    if (verdict === undefined) {
      // As scanFile() decodes: a byte-order mark is not part of the text.
      const found = scanText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, name);
      verdict = found && { ...found, size: Buffer.byteLength(text) };
      this.verdicts.set(abs, verdict);
    }
    return verdict;
  }

  private heldVerdict(held: { lines: readonly string[]; size: number }, name: string): FileSecrets {
    const text = held.lines.join('\n');
    const found = scanText(text, name);
    return found && { ...found, size: held.size };
  }
}

/** The secrets in `text` (a file's, or piped), found on the whole text; null when there are none. */
export function scanText(text: string, name: string): RedactedText | null {
  if (!mayHoldSecret(text, isJson(name))) return null;
  const matches = lintText(text, name);
  if (matches.length === 0) return null;
  const redacted = redactLines(text, matches);
  return redacted.findings.length === 0 ? null : redacted;
}

/**
 * The secrets in a text whose file name is lost (a transcript's ref): the rules that look at a name
 * (`.npmrc`'s token, gcp's `.json` escapes) run as if the text were such a file, so none is missed.
 */
export function scanUnnamedText(text: string): RedactedText | null {
  if (!mayHoldSecret(text, true)) return null;
  const seen = new Set<string>();
  const matches = UNNAMED_AS.flatMap((name) => lintText(text, name))
    .filter((m) => !seen.has(`${m.rule} ${m.start} ${m.end}`) && seen.add(`${m.rule} ${m.start} ${m.end}`))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  if (matches.length === 0) return null;
  const redacted = redactLines(text, matches);
  return redacted.findings.length === 0 ? null : redacted;
}

/** The names a text of no name is checked under: one per kind of name some rule looks at. */
const UNNAMED_AS = ['text', '.npmrc', 'text.json'];

function isJson(name: string): boolean {
  return name.toLowerCase().endsWith('.json');
}

/** One file read for its secrets: the prefilter on its bytes, the rules only on a file it lets through. */
function scanFile(abs: string, name: string): FileSecrets {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return null;
    // Too large to hold redacted: its selection is scanned instead, as a text of its own (extract-secrets.ts).
    if (stat.size > MAX_REDACTED_FILE_BYTES) return { tooLarge: true };
    // A large file is held (and decoded) only when the prefilter, reading it a chunk at a time, lets
    // it through: a clean 60 MB file costs a chunk of memory, not two copies of itself.
    if (stat.size > CHUNK && !prefilterSpan(fd, 0, stat.size, name)) return null;
    const buf = Buffer.allocUnsafe(stat.size);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = fs.readSync(fd, buf, n, buf.length - n, null);
    const bytes = buf.subarray(0, n);
    if (bytes.subarray(0, BINARY_SNIFF).includes(0)) return null;
    // The prefilter reads bytes as latin1: no decoding for a clean file (prefilter.ts says why that holds).
    if (!mayHoldSecret(bytes.toString('latin1'), isJson(name))) return null;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return null;
    }
    const found = scanText(text, name);
    return found && { ...found, size: n };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether the prefilter lets any piece of the bytes [start, end) of an open file through, read a
 * chunk at a time: bounded memory, whatever their size.
 */
export function prefilterSpan(fd: number, start: number, end: number, name: string): boolean {
  const buf = Buffer.allocUnsafe(CHUNK + OVERLAP);
  let kept = 0;
  for (let at = start; at < end; ) {
    const got = fs.readSync(fd, buf, kept, Math.min(CHUNK, end - at), at);
    if (got === 0) return false;
    at += got;
    const filled = kept + got;
    if (mayHoldSecret(buf.toString('latin1', 0, filled), isJson(name))) return true;
    kept = Math.min(OVERLAP, filled);
    buf.copy(buf, 0, filled - kept, filled);
  }
  return false;
}
