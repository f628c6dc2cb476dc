/**
 * The git room: every git process refcat starts runs here, through GitRunner, and the files beside
 * this one ask git one kind of question each (blame, blob reads, a tree's paths, a diff, a log,
 * revisions) and parse its answer into data. Callers (drift, anchor) hold the policy; this room
 * knows git's commands and output formats only.
 *
 * The hardening, and why: the repositories git runs in are anyone's (a cloned alias target, a
 * doc's repository in CI), and their config can name programs. So git runs without a shell, with
 * no fsmonitor hook, no textconv (callers pass `--no-textconv`), every clean/smudge/process filter
 * emptied on the command line, no lazy fetch of a partial clone's missing objects (a fetch runs
 * the transport the remote's config names, over the network), no pager, no prompt, and LC_ALL=C so the messages parsed are git's own
 * (docs/reference.md#limits-and-hostile-input). Process slots cap the git children running at once
 * across every runner of the process (a server's calls), and command lines are cut into bounded
 * batches (arg-batches.ts), so no input size runs out of file descriptors or argument space.
 */
import os from 'node:os';
import type { Context } from '../../shared/context.js';
import { RefcatError, UsageError } from '../../shared/errors.js';
import { lazyRequire } from '../../shared/lazy.js';

/** Loaded when git first runs: `verify refs` without --drift never does (5 ms of its start-up). */
const childProcess = lazyRequire<typeof import('node:child_process')>('node:child_process');

export interface GitRunnerOptions {
  /** Git processes this runner runs at once (default: the number of cores, at least 2). */
  concurrency?: number;
  /**
   * The slots every runner of this process shares (default: GIT_SLOTS), so that calls of a server
   * running side by side start no more git processes together than one call would.
   */
  slots?: GitSlots;
  /** How a process is started (default: node:child_process's spawn); tests inject failures. */
  spawn?: typeof import('node:child_process').spawn;
}

/**
 * A limit on git processes running at once, across runners: each `verify_refs` call of
 * `refcat mcp` and each check of `refcat lsp` has its own runner, and two hundred calls at once
 * would otherwise start two hundred git processes (and run out of file descriptors). Slots are
 * handed out in the order they were asked for.
 */
export class GitSlots {
  /** The most processes that held a slot at once. */
  peak = 0;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async take(): Promise<void> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    this.peak = Math.max(this.peak, this.running);
  }

  release(): void {
    // The slot passes straight to the next one waiting, or is freed.
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** The slots of this process: as many git processes at once as there are cores (at least 2). */
export const GIT_SLOTS = new GitSlots(Math.max(2, os.availableParallelism()));

interface RepoConfig {
  safe: string[];
  settings: Map<string, string>;
}

interface Outcome {
  status: number;
  stdout: Buffer;
  stderr: Buffer;
}

/**
 * The `git` command, hardened as this file's opening comment says, and without depending on the
 * user's git config for anything we parse (docs/reference.md#drift-verdicts): no colours, no
 * external diff tools, paths unquoted. Runs are asynchronous and at most `concurrency` run at
 * once. Every run is counted, so that a caller (and the bench) can see that git is run a bounded
 * number of times, not once per ref.
 */
export class GitRunner {
  /** How many git processes this runner has started. */
  spawned = 0;
  /** Bytes git's output carried (stdout), for tests and the bench to see what git was asked to read. */
  bytesRead = 0;
  /** The most git processes that ran at once. */
  peak = 0;
  readonly concurrency: number;
  private readonly env: Record<string, string | undefined>;
  /** Per repository: `-c` settings that switch off each filter driver its config defines, and its diff/blame settings. */
  private readonly configs = new Map<string, Promise<RepoConfig>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly slots: GitSlots;
  private readonly spawnProcess: typeof import('node:child_process').spawn | undefined;

  constructor(ctx: Context, options: GitRunnerOptions = {}) {
    // A pager or a locale would change what we parse; GIT_DIR/GIT_WORK_TREE would point every
    // repository at one.
    const { GIT_DIR: _d, GIT_WORK_TREE: _w, GIT_INDEX_FILE: _i, ...rest } = ctx.env;
    this.env = { ...rest, GIT_PAGER: 'cat', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_TERMINAL_PROMPT: '0' };
    this.concurrency = Math.max(1, options.concurrency ?? Math.max(2, os.availableParallelism()));
    this.slots = options.slots ?? GIT_SLOTS;
    this.spawnProcess = options.spawn;
  }

  /** Run git in `repo`; the output as a Buffer. A failure throws GitError naming the repository. */
  async run(repo: string, args: readonly string[], input?: string): Promise<Buffer> {
    const result = await this.spawn(repo, args, input);
    if (result.status !== 0) {
      refuseOwnership(result.stderr);
      const why = firstLine(result.stderr.toString('utf8')) || `exit code ${result.status}`;
      throw new GitError(`git ${args.find((a) => !a.startsWith('-')) ?? ''} failed in ${repo}: ${why}`);
    }
    return result.stdout;
  }

  /** Run git in `repo`; null instead of an error when git exits non-zero (a question, not a task). */
  async tryRun(repo: string, args: readonly string[], input?: string): Promise<Buffer | null> {
    const result = await this.spawn(repo, args, input);
    // A repository git refuses to read answers no question: saying "no" would hide why.
    if (result.status !== 0) refuseOwnership(result.stderr);
    return result.status === 0 ? result.stdout : null;
  }

  /**
   * Run git in `repo`; null when git fails with a message matching `expected` (an answer such as
   * "no such path in HEAD"), GitError naming the repository for any other failure.
   */
  async runExpecting(repo: string, args: readonly string[], expected: RegExp): Promise<Buffer | null> {
    const result = await this.spawn(repo, args);
    if (result.status === 0) return result.stdout;
    refuseOwnership(result.stderr);
    const stderr = result.stderr.toString('utf8');
    if (expected.test(stderr)) return null;
    throw new GitError(`git ${args.find((a) => !a.startsWith('-')) ?? ''} failed in ${repo}: ${firstLine(stderr) || `exit code ${result.status}`}`);
  }

  /**
   * `filter.<driver>.clean`/`smudge`/`process` run programs whenever git reads a working-tree file
   * (blame, a diff against the working tree). An empty command is no filter, so each driver the
   * repository's config defines (includes followed) is emptied on the command line, which wins
   * over every config file. Reading the config runs nothing. One `git config` per repository, which
   * also keeps the `diff.*` and `blame.*` settings for settingsOf().
   */
  private safeSettings(repo: string): Promise<string[]> {
    return this.config(repo).then((c) => c.safe);
  }

  /**
   * The names (lowercased, as git prints them) and values of the `diff.*` and `blame.*` settings
   * git sees in `repo`, from the same `git config` run as safeSettings(): no extra process.
   */
  async settingsOf(repo: string): Promise<ReadonlyMap<string, string>> {
    return (await this.config(repo)).settings;
  }

  private config(repo: string): Promise<RepoConfig> {
    let config = this.configs.get(repo);
    if (!config) {
      config = this.exec(repo, ['config', '-z', '--get-regexp', '^(filter|diff|blame)\\.'], undefined, []).then((result) => {
        const drivers = new Set<string>();
        const settings = new Map<string, string>();
        // Exit 1: no such key. Anything else (not a repository) is for the real command to report.
        if (result.status === 0) {
          for (const record of result.stdout.toString('utf8').split('\0')) {
            const nl = record.indexOf('\n');
            const key = nl === -1 ? record : record.slice(0, nl);
            if (key === '') continue;
            const m = /^filter\.(.+)\.[^.]+$/s.exec(key);
            if (m) drivers.add(m[1]!);
            else settings.set(key, nl === -1 ? '' : record.slice(nl + 1));
          }
        }
        const safe = ['-c', 'core.fsmonitor=false'];
        for (const d of drivers) for (const k of ['clean', 'smudge', 'process']) safe.push('-c', `filter.${d}.${k}=`);
        for (const d of drivers) safe.push('-c', `filter.${d}.required=false`);
        return { safe, settings };
      });
      this.configs.set(repo, config);
    }
    return config;
  }

  /**
   * A long-lived git process in `repo` (`git cat-file --batch`), hardened and counted as every run.
   * It holds no slot: it waits for requests most of its life, and a slot held that long would stall
   * every other git command of the process (two pinned repositories on two cores would deadlock).
   * The caller ends it (object-batch.ts).
   */
  async startProcess(repo: string, args: readonly string[]): Promise<import('node:child_process').ChildProcessWithoutNullStreams> {
    const settings = await this.safeSettings(repo);
    this.spawned++;
    const spawn = this.spawnProcess ?? childProcess().spawn;
    const argv = ['-c', 'core.quotepath=off', '-c', 'color.ui=false', ...settings, ...args];
    try {
      return spawn('git', argv, { cwd: repo, env: this.env, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] }) as import('node:child_process').ChildProcessWithoutNullStreams;
    } catch (e) {
      throw new GitError(`git could not be started in ${repo}: ${firstLine((e as Error).message)}`);
    }
  }

  private async spawn(repo: string, args: readonly string[], input?: string): Promise<Outcome> {
    return this.exec(repo, args, input, await this.safeSettings(repo));
  }

  private async exec(repo: string, args: readonly string[], input: string | undefined, settings: readonly string[]): Promise<Outcome> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      await this.slots.take();
      try {
        this.peak = Math.max(this.peak, this.running);
        this.spawned++;
        const spawn = this.spawnProcess ?? childProcess().spawn;
        const result = await runGit(spawn, repo, ['-c', 'core.quotepath=off', '-c', 'color.ui=false', ...settings, ...args], this.env, input);
        this.bytesRead += result.stdout.length;
        return result;
      } finally {
        this.slots.release();
      }
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * One git process. Its failure to start (EMFILE when file descriptors run out, EACCES, EAGAIN)
 * is this call's GitError, never an error event without a listener, which would end the process
 * (a server with every other call in flight): the listener is attached before anything else.
 */
function runGit(
  spawn: typeof import('node:child_process').spawn,
  repo: string,
  argv: string[],
  env: Record<string, string | undefined>,
  input: string | undefined,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      if (e.code === 'ENOENT') reject(new UsageError('git is not installed (or not on PATH): --drift and --fix need the git command', { code: 'git_missing' }));
      else reject(new GitError(`git could not be started in ${repo}: ${firstLine(e.message)}${e.code === 'EMFILE' || e.code === 'ENFILE' ? ' (too many open files; try again with fewer calls at once)' : ''}`));
    };
    let child: import('node:child_process').ChildProcess;
    try {
      child = spawn('git', argv, { cwd: repo, env, windowsHide: true, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    } catch (e) {
      fail(e as NodeJS.ErrnoException);
      return;
    }
    child.on('error', fail);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    child.stdin?.on('error', () => {}); // git may exit before reading all of it; its status says why
    child.on('close', (code, signal) => {
      if (settled) return;
      settled = true;
      resolve({ status: code ?? (signal ? 128 : 1), stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
    });
    child.stdin?.end(input);
  });
}

/** git itself failed (a corrupt repository, a bad --since revision): exit 1, one line. */
export class GitError extends RefcatError {
  constructor(message: string, code = 'git_failed') {
    super(message, { code });
  }
}

/**
 * git refuses a repository another user owns (its `safe.directory` check, common in CI
 * containers, where the checkout belongs to another uid): its message spans four lines, the fix
 * on the last. One line instead, saying what is wrong and what to run
 * (docs/refs.md#refs-at-a-version); null for any other failure.
 */
export function ownershipProblem(stderr: string | Buffer): string | null {
  const m = /detected dubious ownership in repository at '([^'\n]*)'/.exec(stderr.toString());
  if (!m) return null;
  const repo = m[1]!;
  return `git refuses to read ${repo}: it is owned by another user ("dubious ownership"); if you trust it, run: git config --global --add safe.directory ${repo}`;
}

function refuseOwnership(stderr: Buffer): void {
  const problem = ownershipProblem(stderr);
  if (problem !== null) throw new GitError(problem, 'dubious_ownership');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.trim();
}
