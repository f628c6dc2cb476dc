import fs from 'node:fs';
import { type Diagnostic, RefError } from '../../shared/errors.js';
import type { HeldFile } from './read-cache.js';
import type { Extraction, ExtractOptions, ResolvedFile, StreamOptions } from './extraction.js';
import type { OutlineInfo } from './outline-select.js';
import { linesOf } from '../secrets/redact.js';
import { mayHoldSecret } from '../secrets/prefilter.js';
import { MAX_REDACTED_FILE_BYTES, prefilterSpan, type RedactedText, scanText } from '../secrets/secret-scan.js';

/**
 * Extraction's part of the secret check (docs/refs.md#secrets): a file's secrets are found on its
 * whole text before any line is selected, and a file that holds some is read from its redacted
 * lines, so that ranges, patterns and blocks all see the redacted text and nothing else.
 */

/** How `file` is read: from its redacted lines, as usual with its selection scanned after (`large`), or as usual. */
export type SecretRead = { redacted: RedactedText & { size: number } } | { large: true } | { deferred: true } | null;

/**
 * A whole file streamed from disk is checked after it is read, on the bytes the read holds (most
 * files: they are read in one piece), and read again only when the prefilter lets them through: a
 * glob of thousands of clean files reads each once (docs/design/secrets.md#whole-files-before-selection).
 */
function deferred(file: ResolvedFile, options: ExtractOptions & StreamOptions): boolean {
  return options.onDisk === true && !options.checkOnly && file.ref.selector === null;
}

/**
 * After a deferred read: true when the whole file's bytes were held and the prefilter found them
 * clean. Otherwise the span is closed, and the file is to be read again, checked first.
 */
export function cleanAsRead(extraction: Extraction, file: ResolvedFile, size: number): boolean {
  const span = extraction.onDisk;
  if (!span) return extraction.lines.length === 0;
  // The whole file: all its bytes but a BOM.
  const whole = span.bytes !== undefined && span.start <= 3 && span.end === size;
  if (whole && !mayHoldSecret(span.bytes!.toString('latin1'), file.relPath.toLowerCase().endsWith('.json'))) return true;
  // Bytes not held (a file read in pieces): the prefilter reads them again, in bounded memory.
  if (!whole && !prefilterSpan(span.fd, 0, size, file.relPath)) return true;
  if (!whole && size > MAX_REDACTED_FILE_BYTES) {
    // Too large to hold redacted: checked as it stands, as any selection of such a file is.
    scanLargeSelection(extraction, file);
    return true;
  }
  fs.closeSync(span.fd);
  span.release?.();
  delete extraction.onDisk;
  return false;
}

/**
 * How to read `file` (docs/refs.md#secrets). Line counts (`--validate-only` of a range or a whole
 * file) do not change with redaction: only a pattern needs the redacted text then.
 */
export function secretRead(file: ResolvedFile, options: ExtractOptions & StreamOptions, held: HeldFile | null): SecretRead {
  const scanner = options.secrets;
  if (!scanner?.active) return null;
  if (options.checkOnly && file.ref.selector?.kind !== 'pattern') return null;
  if (!held && deferred(file, options)) return { deferred: true };
  // A file read at a version is checked as that version holds it, apart from the disk's copy.
  const key = file.version?.commit ? `${file.path}@${file.version.commit}` : file.path;
  const found = scanner.file(file.path, file.relPath, held ?? undefined, key);
  if (found === null) return null;
  return 'tooLarge' in found ? { large: true } : { redacted: found };
}

/**
 * The selection of a file too large to scan whole, scanned as a text of its own: its lines are
 * redacted in place (a selection left on disk is read into memory then, when it may hold a
 * secret), or, past what can be held, the ref fails. Closes what it leaves behind when it throws.
 */
export function scanLargeSelection(extraction: Extraction, file: ResolvedFile): void {
  const span = extraction.onDisk;
  if (span) {
    // The bytes the selection pass still holds are read as they are; others, again from the file.
    const clean = span.bytes ? !mayHoldSecret(span.bytes.toString('latin1'), file.relPath.endsWith('.json')) : !prefilterSpan(span.fd, span.start, span.end, file.relPath);
    if (clean) return;
    if (span.end - span.start > MAX_REDACTED_FILE_BYTES) {
      fs.closeSync(span.fd);
      span.release?.();
      delete extraction.onDisk;
      const mib = MAX_REDACTED_FILE_BYTES / (1024 * 1024);
      throw new RefError('secret_too_large', `Left out ${file.refText}: it may hold a secret, and a selection over ${mib} MiB is not redacted`, file.refText, [
        'Select fewer lines, or pass --secrets=allow',
      ]);
    }
    const bytes = Buffer.allocUnsafe(span.end - span.start);
    let n = 0;
    for (let got = -1; got !== 0 && n < bytes.length; n += got) got = fs.readSync(span.fd, bytes, n, bytes.length - n, span.start + n);
    fs.closeSync(span.fd);
    span.release?.();
    delete extraction.onDisk;
    extraction.lines = linesOf(bytes.subarray(0, n).toString('utf8'));
  }
  const found = scanText(extraction.lines.join('\n'), file.relPath);
  if (!found) return;
  extraction.lines = found.lines;
  const shift = (line: number) => line + extraction.lineStart - 1;
  markRedacted(extraction, {
    lines: found.lines,
    redactions: found.redactions.map((r) => ({ ...r, line: shift(r.line) })),
    findings: found.findings.map((f) => ({ ...f, line: shift(f.line), endLine: shift(f.endLine) })),
  });
}

/** What of `found` lies in the lines `extraction` selected: its redacted lines and its findings. */
export function markRedacted(extraction: Extraction, found: RedactedText): void {
  const { lineStart, lineEnd } = extraction;
  const redacted = found.redactions.filter((r) => r.line >= lineStart && r.line <= lineEnd);
  const findings = found.findings.filter((f) => f.endLine >= lineStart && f.line <= lineEnd);
  if (findings.length > 0) {
    extraction.redacted = redacted;
    extraction.secrets = findings;
  }
}

/**
 * What a result holding secrets is reported with: one warning per finding, naming the place and
 * what was found, never the value; and whether the result is still printed (`withhold` and `fail`
 * leave it out: a note, or an error).
 */
export function secretDiagnostics(result: Extraction, options: ExtractOptions): { keep: boolean; warnings: Diagnostic[]; errors: Diagnostic[] } {
  const findings = result.secrets ?? [];
  const mode = options.secrets?.mode ?? 'redact';
  if (findings.length === 0) return { keep: true, warnings: [], errors: [] };
  const ref = result.ref;
  const place = (line: number) => `${result.displayPath}:${line}`;
  if (mode === 'withhold' || mode === 'fail') {
    const list = findings.map((f) => `${f.kind} at ${place(f.line)}`);
    const message = `Left out ${result.displayPath}: it holds ${list.join(', ')} (--secrets=${mode})`;
    const d: Diagnostic = { code: mode === 'fail' ? 'secret_found' : 'secret_withheld', message, details: [], ref };
    return mode === 'fail' ? { keep: false, warnings: [], errors: [d] } : { keep: false, warnings: [d], errors: [] };
  }
  const warnings = findings.map((f): Diagnostic => ({ code: 'secret_redacted', message: `redacted ${f.kind} at ${place(f.line)}`, details: [], ref }));
  return { keep: true, warnings, errors: [] };
}

/**
 * `--outline`: the redacted text of a file that holds a secret (an outline keeps whole lines of
 * it), or null. `text`: the file's text as the caller read it whole (the outline's own read).
 */
export function outlineSecrets(file: ResolvedFile, options: ExtractOptions, text?: string): RedactedText | null {
  const scanner = options.secrets;
  if (!scanner?.active || options.checkOnly) return null;
  // A file read at a version is checked as that version holds it (its bytes came from git).
  const bytes = file.version?.bytes;
  const found = bytes
    ? scanner.file(file.path, file.relPath, { lines: linesOf(bytes.toString('utf8')), size: bytes.length }, `${file.path}@${file.version!.commit}`)
    : text !== undefined
      ? scanner.text(file.path, file.relPath, text)
      : scanner.file(file.path, file.relPath);
  // A file over 64 MiB has no outline (larger than 1 MiB): nothing of it is printed.
  return found && !('tooLarge' in found) ? found : null;
}

/** What of `found` an outline printed: the redacted lines it kept, and the findings on them. */
export function markOutlined(extraction: Extraction & { outline: OutlineInfo }, found: RedactedText): void {
  const kept = new Set(extraction.outline.entries.flatMap((e) => (e.kind === 'line' ? [e.line] : [])));
  const redacted = found.redactions.filter((r) => kept.has(r.line));
  if (redacted.length === 0) return;
  const lines = new Set(redacted.map((r) => r.line));
  extraction.redacted = redacted;
  extraction.secrets = found.findings.filter((f) => [...lines].some((l) => l >= f.line && l <= f.endLine));
}

/** A symbol ref's selected lines, redacted where the file's whole text holds a secret. */
export function redactSymbolLines(extraction: Extraction, file: ResolvedFile, options: ExtractOptions): void {
  const found = outlineSecrets(file, options);
  if (!found || extraction.lines.length === 0) return;
  extraction.lines = extraction.lines.map((line, i) => found.lines[extraction.lineStart - 1 + i] ?? line);
  markRedacted(extraction, found);
}
