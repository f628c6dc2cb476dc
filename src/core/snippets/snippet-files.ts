import { MAX_TEXT_FILE_BYTES, readTextFile } from '../safe-read/read-text-file.js';
import { type RunIndex, runIndex } from './compare-snippet.js';
import { scanText } from '../secrets/secret-scan.js';

/** Bytes of code files held at once (the most recently searched file is always held). */
const MAX_HELD_BYTES = 64 * 1024 * 1024;

/**
 * The files stale snippets are looked for in (`now_at`, docs/snippets.md#comparing), each read and
 * indexed once for a whole command: 200 stale citations of one 14 MB file read it once, not 200
 * times. Files are held up to MAX_HELD_BYTES, the least recently searched let go first. For one
 * command over a snapshot of the files, as the read cache of extraction (extract/read-cache.ts).
 */
export class SnippetFiles {
  /** Files read whole so far, for tests to count. */
  reads = 0;
  private readonly held = new Map<string, { index: RunIndex; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = MAX_HELD_BYTES) {}

  /** The index of `file`'s lines; an unreadable file has none (no run is found in it). */
  index(file: string): RunIndex {
    const hit = this.held.get(file);
    if (hit) {
      // Most recently searched last: the first entry is the one to let go.
      this.held.delete(file);
      this.held.set(file, hit);
      return hit.index;
    }
    this.reads++;
    let text = '';
    try {
      text = readTextFile(file, MAX_TEXT_FILE_BYTES);
    } catch {
      // binary, too large, gone: no run to find
    }
    // Searched redacted, as the snippet is compared (judge-snippets.ts): no snippet finds a secret's place.
    const lines = text === '' ? [] : (scanText(text, file)?.lines ?? text.split('\n'));
    const entry = { index: runIndex(lines), bytes: text.length };
    this.held.set(file, entry);
    this.bytes += entry.bytes;
    for (const [name, old] of this.held) {
      if (this.bytes <= this.maxBytes || name === file) break;
      this.held.delete(name);
      this.bytes -= old.bytes;
    }
    return entry.index;
  }
}
