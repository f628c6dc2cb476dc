/**
 * What `git diff -M -U0 BASE` says about each file of a repository between a base commit and the
 * working tree (docs/reference.md#drift-verdicts): where it went (renamed, deleted) and which old
 * lines were replaced by which new ones. Pure: text in, data out.
 */

export interface Hunk {
  /** `@@ -oldStart,oldCount +newStart,newCount @@`; a count of 0 means "after line start". */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface FileChange {
  /** Path at the base commit, relative to the repository root. */
  oldPath: string;
  /** Path in the working tree; null when the file was deleted. */
  newPath: string | null;
  hunks: Hunk[];
}

/** Changes by old path. A path that is not in the map did not change. */
export type RepoChanges = Map<string, FileChange>;

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseDiff(text: string): RepoChanges {
  const changes: RepoChanges = new Map();
  for (const d of parseFileDiffs(text)) {
    if (!d.added && d.oldPath) changes.set(d.oldPath, { oldPath: d.oldPath, newPath: d.newPath, hunks: d.hunks });
  }
  return changes;
}

/** Every file of a diff in the order git printed them, added files too (`added`, no old path). */
export function parseFileDiffs(text: string): (FileChange & { added: boolean })[] {
  const files: (FileChange & { added: boolean })[] = [];
  let current: (FileChange & { added: boolean }) | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of text.split('\n')) {
    // Inside a hunk every line is content, even one that looks like a header.
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('-')) oldLeft--;
      else if (line.startsWith('+')) newLeft--;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      current = { oldPath: '', newPath: '', hunks: [], added: false };
      files.push(current);
      const paths = headerPaths(line.slice('diff --git '.length));
      if (paths) [current.oldPath, current.newPath] = paths;
      continue;
    }
    if (!current) continue;
    const c: FileChange & { added: boolean } = current;
    if (line.startsWith('new file mode')) c.added = true;
    else if (line.startsWith('deleted file mode')) c.newPath = null;
    else if (line.startsWith('rename from ')) c.oldPath = unquote(line.slice('rename from '.length));
    else if (line.startsWith('rename to ')) c.newPath = unquote(line.slice('rename to '.length));
    else if (line.startsWith('--- ')) {
      const p = filePath(line.slice(4));
      if (p !== null) c.oldPath = p;
    } else if (line.startsWith('+++ ')) {
      const p = filePath(line.slice(4));
      c.newPath = p;
    } else {
      const m = HUNK_RE.exec(line);
      if (m) {
        const hunk = { oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newStart: Number(m[3]), newCount: m[4] === undefined ? 1 : Number(m[4]) };
        c.hunks.push(hunk);
        oldLeft = hunk.oldCount;
        newLeft = hunk.newCount;
      }
    }
  }
  return files;
}

/** `a/x b/x` when both names are the same (the only case we need before ---/+++ or rename lines). */
function headerPaths(rest: string): [string, string] | null {
  if (rest.startsWith('"')) return null;
  const half = (rest.length - 1) / 2;
  if (!Number.isInteger(half)) return null;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  if (!a.startsWith('a/') || !b.startsWith('b/') || a.slice(2) !== b.slice(2)) return null;
  return [a.slice(2), b.slice(2)];
}

/** `a/path`, `b/path` or `/dev/null` (null); git ends a name holding a space with a tab. */
function filePath(s: string): string | null {
  const name = unquote(s.replace(/\t$/, ''));
  if (name === '/dev/null') return null;
  return name.replace(/^[ab]\//, '');
}

/** git's C-style quoting of unusual names (`"a\tb"`, octal escapes for bytes). */
function unquote(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"')) return s;
  const bytes: number[] = [];
  const body = Buffer.from(s.slice(1, -1), 'utf8');
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== 92) {
      bytes.push(body[i]!);
      continue;
    }
    const next = String.fromCharCode(body[i + 1]!);
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.subarray(i + 1, i + 4).toString('latin1'), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? body[i + 1]!);
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Where old line `n` is now: `{line, edited: false}` when it survived untouched, or the first line
 * of the replacing text (`edited: true`) when a hunk changed or removed it.
 */
export function mapLine(hunks: readonly Hunk[], n: number): { line: number; edited: boolean } {
  let offset = 0;
  for (const h of hunks) {
    const lastOld = h.oldCount === 0 ? h.oldStart : h.oldStart + h.oldCount - 1;
    const before = h.oldCount === 0 ? n <= h.oldStart : n < h.oldStart;
    if (before) return { line: n + offset, edited: false };
    if (h.oldCount > 0 && n <= lastOld) {
      const within = Math.min(n - h.oldStart, Math.max(h.newCount - 1, 0));
      return { line: Math.max(h.newStart + within, 1), edited: true };
    }
    offset += h.newCount - h.oldCount;
  }
  return { line: n + offset, edited: false };
}

/**
 * What git's diff did inside the old lines `start`..`end`: `deleted`, old lines removed with
 * nothing in their place; `inserted`, new lines added between two of them without replacing any
 * (lines added before the first or after the last are outside the range). A hunk that replaces
 * lines counts in neither: its old lines are edited (mapLine()).
 */
export function editsInside(hunks: readonly Hunk[], start: number, end: number): { inserted: number; deleted: number } {
  let inserted = 0;
  let deleted = 0;
  for (const h of hunks) {
    if (h.oldCount === 0) {
      // An insertion after old line oldStart.
      if (h.oldStart >= start && h.oldStart < end) inserted += h.newCount;
    } else if (h.newCount === 0) {
      deleted += Math.max(0, Math.min(end, h.oldStart + h.oldCount - 1) - Math.max(start, h.oldStart) + 1);
    }
  }
  return { inserted, deleted };
}

/** Where new line `n` of a diff was before it: its old line, or null when the diff added it. */
export function lineBefore(hunks: readonly Hunk[], n: number): number | null {
  let offset = 0;
  for (const h of hunks) {
    if (h.newCount === 0 ? n <= h.newStart : n < h.newStart) return n - offset;
    if (n < h.newStart + h.newCount) return null;
    offset += h.newCount - h.oldCount;
  }
  return n - offset;
}
