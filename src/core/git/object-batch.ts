import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { GitError, type GitRunner, ownershipProblem } from './git-runner.js';

/** What one `git cat-file --batch` request gave. */
export type BatchAnswer =
  /** `data` is empty when the object is larger than the read's `maxBytes` (`whole` false): it was skipped, not held. */
  | { kind: 'object'; oid: string; type: string; size: number; data: Buffer; whole: boolean }
  /** git knows no object by that name (a path the tree lacks, an unknown revision). */
  | { kind: 'missing' }
  /** The name is an abbreviation of several objects. */
  | { kind: 'ambiguous' }
  /**
   * The tree names the object, but the clone lacks it (a partial clone's blob): git, which may not
   * fetch it, stops the batch; the process is started again for the next request.
   */
  | { kind: 'absent'; oid: string };

/** Characters an object name never holds on the batch's input: it reads one name a line. */
const LINE_BREAKS = /[\r\n\0]/;

/**
 * One long-lived `git cat-file --batch` for one repository: each read is one round trip (a name
 * written, its object read back), so a run of any number of reads into one repository starts one
 * process (docs/refs.md#refs-at-a-version). Reads run one at a time, in the order asked.
 *
 * A process that dies is started again for the next read: the read it was answering fails alone.
 * A death git explains (a partial clone's missing object, which it may not fetch) is that read's
 * answer; after one death git does not explain, the next read is the last one tried.
 */
export class ObjectBatch {
  private child: ChildProcessWithoutNullStreams | null = null;
  private starting: Promise<ChildProcessWithoutNullStreams> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Output not consumed yet, in the pieces it came in (joined when a read needs them). */
  private chunks: Buffer[] = [];
  private total = 0;
  private stderr = '';
  private waiter: (() => void) | null = null;
  private exited = false;
  private unexplainedDeaths = 0;
  private closed = false;

  constructor(
    private readonly git: GitRunner,
    readonly repo: string,
  ) {}

  /** The object `name` names: `<rev>:<path>`, `<sha>^{commit}`, `<tree-ish>:<dir>`. */
  read(name: string, maxBytes = Number.POSITIVE_INFINITY): Promise<BatchAnswer> {
    if (LINE_BREAKS.test(name)) return Promise.reject(new GitError(`an object name with a line break or NUL is never asked of git: ${JSON.stringify(name)}`));
    const next = this.queue.then(() => this.ask(name, maxBytes));
    this.queue = next.catch(() => {});
    return next;
  }

  /** Ends the process (its stdin closed: git exits on its own). */
  close(): void {
    this.closed = true;
    this.child?.stdin.end();
    this.child = null;
  }

  private async ask(name: string, maxBytes: number): Promise<BatchAnswer> {
    if (this.closed) throw new GitError(`the object reader of ${this.repo} is closed`);
    const refused = ownershipProblem(this.stderr);
    if (refused !== null) throw new GitError(refused, 'dubious_ownership');
    if (this.unexplainedDeaths > 1) throw new GitError(`git cat-file stopped twice in ${this.repo}: ${this.stderr.trim().split('\n').pop() ?? ''}`);
    // A process that ended between reads was answering nothing: the next one starts afresh.
    if (this.child && this.exited && this.total === 0) this.reset();
    const child = await this.process();
    child.stdin.write(name + '\n');
    const header = await this.line();
    if (header === null) return this.died();
    if (header.endsWith(' missing')) return { kind: 'missing' };
    if (header.endsWith(' ambiguous')) return { kind: 'ambiguous' };
    const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(header);
    if (!m) throw new GitError(`git cat-file answered ${JSON.stringify(header.slice(0, 80))} in ${this.repo}`);
    const size = Number(m[3]);
    if (size > maxBytes) {
      // Passed over as it comes, never held: the next answer follows it.
      if (!(await this.skip(size + 1))) return this.died();
      return { kind: 'object', oid: m[1]!, type: m[2]!, size, data: Buffer.alloc(0), whole: false };
    }
    const data = await this.bytes(size + 1);
    if (data === null) return this.died();
    return { kind: 'object', oid: m[1]!, type: m[2]!, size, data: data.subarray(0, size), whole: true };
  }

  /** The process died while answering: an absent object (git says which), or a failure. */
  private died(): BatchAnswer {
    const absent = /could not fetch ([0-9a-f]{40,64}) from promisor remote/.exec(this.stderr);
    const why = this.stderr.trim().split('\n').pop() ?? '';
    const refused = ownershipProblem(this.stderr);
    this.reset();
    if (absent) return { kind: 'absent', oid: absent[1]! };
    this.unexplainedDeaths++;
    if (refused !== null) throw new GitError(refused, 'dubious_ownership');
    throw new GitError(`git cat-file stopped in ${this.repo}${why ? `: ${why}` : ''}`);
  }

  private reset(): void {
    this.child = null;
    this.starting = null;
    this.chunks = [];
    this.total = 0;
    this.stderr = '';
  }

  private process(): Promise<ChildProcessWithoutNullStreams> {
    if (this.child) return Promise.resolve(this.child);
    this.starting ??= this.git.startProcess(this.repo, ['cat-file', '--batch']).then((child) => {
      this.exited = false;
      child.stdout.on('data', (b: Buffer) => {
        this.chunks.push(b);
        this.total += b.length;
        this.wake();
      });
      child.stderr.on('data', (b: Buffer) => {
        this.stderr = (this.stderr + b.toString('utf8')).slice(-4096);
      });
      child.stdin.on('error', () => {}); // a write after git died: the read sees the exit
      const gone = () => {
        this.exited = true;
        this.wake();
      };
      child.on('error', gone);
      child.on('close', gone);
      this.child = child;
      return child;
    });
    return this.starting;
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  /** The output not consumed yet, as one buffer. */
  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.total)];
    return this.chunks[0]!;
  }

  /** Consume the first `n` bytes of the output. */
  private consume(n: number): Buffer {
    const all = this.joined();
    this.chunks = n === all.length ? [] : [all.subarray(n)];
    this.total -= n;
    return all.subarray(0, n);
  }

  /** The next line of output (without its LF), or null when the process ended first. */
  private async line(): Promise<string | null> {
    for (;;) {
      const nl = this.total === 0 ? -1 : this.joined().indexOf(10);
      if (nl !== -1) return this.consume(nl + 1).subarray(0, nl).toString('utf8');
      if (this.exited) return null;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Pass over the next `n` bytes of output; false when the process ended first. */
  private async skip(n: number): Promise<boolean> {
    for (;;) {
      while (n > 0 && this.chunks.length > 0) {
        const first = this.chunks[0]!;
        const take = Math.min(n, first.length);
        if (take === first.length) this.chunks.shift();
        else this.chunks[0] = first.subarray(take);
        this.total -= take;
        n -= take;
      }
      if (n === 0) return true;
      if (this.exited) return false;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** The next `n` bytes of output, or null when the process ended first. */
  private async bytes(n: number): Promise<Buffer | null> {
    for (;;) {
      if (this.total >= n) return this.consume(n);
      if (this.exited) return null;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }
}
