import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { GitRunner } from '../git/git-runner.js';
import type { ObjectBatch } from '../git/object-batch.js';
import { refsNamed } from '../git/revisions.js';
import { MAX_REF_REVISION_CHARS, quotedRevision, revisionProblem } from '../ref-spec/revision-syntax.js';

/** A pin that looks like an abbreviated or full commit name. */
const COMMIT_NAME = /^[0-9a-f]{4,64}$/i;

/** What a lockfile pin names in a clone now (docs/refs.md#branch-and-tag-pins). */
export type PinCommit =
  | { commit: string; shown: string }
  /**
   * The clone does not have it: `why` for a message, `fetch` the name a `git fetch` brings;
   * `malformed`: the pin is no commit, branch or tag name at all (`why` says so), never asked of git.
   */
  | { commit: null; why: string; fetch: string; malformed?: boolean };

/**
 * The commit a pin names: a commit name is that commit (through the batch, no extra process); a
 * branch or tag is `origin/NAME`, else the local branch, else the tag, as it is now (one
 * `git for-each-ref`). A lockfile is anyone's text: a pin that is no revision name is never
 * handed to git.
 */
export async function pinCommit(git: GitRunner, batch: ObjectBatch, repo: string, pin: string): Promise<PinCommit> {
  if (pin.length > MAX_REF_REVISION_CHARS || revisionProblem(pin) !== null || /[~^]/.test(pin)) {
    return { commit: null, why: `the pin ${quotedRevision(pin)} is not a valid commit, branch or tag name`, fetch: '', malformed: true };
  }
  if (COMMIT_NAME.test(pin)) {
    const answer = await batch.read(`${pin}^{commit}`);
    if (answer.kind === 'object') return { commit: answer.oid, shown: answer.oid.slice(0, 7) };
  }
  const listed = await refsNamed(git, repo, [`refs/remotes/origin/${pin}`, `refs/heads/${pin}`, `refs/tags/${pin}`]);
  const rank = (r: string) => (r === `refs/remotes/origin/${pin}` ? 0 : r === `refs/heads/${pin}` ? 1 : r === `refs/tags/${pin}` ? 2 : 9);
  const best = listed.filter((r) => rank(r) < 9).sort((a, b) => rank(a) - rank(b))[0];
  if (best) {
    const answer = await batch.read(`${best}^{commit}`);
    if (answer.kind === 'object') return { commit: answer.oid, shown: `${pin} (${answer.oid.slice(0, 7)})` };
  }
  const what = COMMIT_NAME.test(pin) ? 'commit' : 'branch or tag';
  return { commit: null, why: `the ${what} ${pin}`, fetch: pin };
}

/** The commit the checkout is at (HEAD), or null (no commit yet, a broken HEAD). */
export async function headCommit(batch: ObjectBatch): Promise<string | null> {
  const answer = await batch.read('HEAD^{commit}');
  return answer.kind === 'object' ? answer.oid : null;
}

/**
 * Whether the file on disk holds exactly the blob `oid` (git's object name of its bytes), so that
 * reading the disk reads the pinned version. A checkout that turned `\n` into `\r\n`
 * (core.autocrlf) holds the same lines: it counts as unmodified.
 */
export function diskHolds(abs: string, oid: string): boolean {
  const algorithm = oid.length === 64 ? 'sha256' : 'sha1';
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return false;
    if (stat.size > HELD_BYTES) return streamedName(fd, stat.size, algorithm) === oid;
    const bytes = Buffer.allocUnsafe(stat.size);
    let n = 0;
    for (let got = -1; got !== 0 && n < bytes.length; n += got) got = fs.readSync(fd, bytes, n, bytes.length - n, null);
    const name = (b: Buffer) => createHash(algorithm).update(`blob ${b.length}\0`).update(b).digest('hex');
    if (name(bytes.subarray(0, n)) === oid) return true;
    return bytes.includes(13) && name(Buffer.from(bytes.subarray(0, n).toString('latin1').replaceAll('\r\n', '\n'), 'latin1')) === oid;
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * diskHolds(), remembered per file for as long as the file is untouched: thousands of refs into a
 * few hundred files of a checkout at its pin read and hash each file once. A file is known by its
 * stat (device, inode, size, modification and change times), which any write changes, so a reader
 * that lives long (the editor's) hashes a file again once it was edited.
 */
export class DiskHeld {
  private readonly known = new Map<string, { stamp: string; holds: boolean }>();

  holds(abs: string, oid: string): boolean {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(abs, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st) return diskHolds(abs, oid);
    const stamp = `${oid}\0${st.dev}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}`;
    const hit = this.known.get(abs);
    if (hit?.stamp === stamp) return hit.holds;
    const holds = diskHolds(abs, oid);
    this.known.set(abs, { stamp, holds });
    return holds;
  }
}

/** Files past this are hashed as they are read, in bounded memory (and as they are: no `\r\n` leeway). */
const HELD_BYTES = 64 * 1024 * 1024;

function streamedName(fd: number, size: number, algorithm: string): string {
  const hash = createHash(algorithm).update(`blob ${size}\0`);
  const buf = Buffer.allocUnsafe(1 << 20);
  for (let got = fs.readSync(fd, buf, 0, buf.length, null); got > 0; got = fs.readSync(fd, buf, 0, buf.length, null)) hash.update(buf.subarray(0, got));
  return hash.digest('hex');
}
