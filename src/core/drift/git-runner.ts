import { spawnSync } from 'node:child_process';
import type { Context } from '../../shared/context.js';
import { RefcatError, UsageError } from '../../shared/errors.js';

/**
 * The `git` command, run without a shell and without depending on the user's git config for
 * anything we parse (docs/reference.md#drift-verdicts): no colours, no external diff tools, paths
 * unquoted. Git executes nothing a repository's config names (docs/reference.md#limits-and-hostile-input):
 * no fsmonitor hook, no textconv (callers pass `--no-textconv`), no clean/smudge filter, no lazy
 * fetch of a partial clone's missing objects. Every run is counted, so that a caller (and the
 * bench) can see that git is run a bounded number of times, not once per ref.
 */
export class GitRunner {
  /** How many git processes this runner has started. */
  spawned = 0;
  /** Bytes git's output carried (stdout), for tests and the bench to see what git was asked to read. */
  bytesRead = 0;
  private readonly env: Record<string, string | undefined>;
  /** Per repository: `-c` settings that switch off each filter driver its config defines. */
  private readonly noFilters = new Map<string, string[]>();

  constructor(ctx: Context) {
    // A pager or a locale would change what we parse; GIT_DIR/GIT_WORK_TREE would point every
    // repository at one.
    const { GIT_DIR: _d, GIT_WORK_TREE: _w, GIT_INDEX_FILE: _i, ...rest } = ctx.env;
    this.env = { ...rest, GIT_PAGER: 'cat', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_TERMINAL_PROMPT: '0' };
  }

  /** Run git in `repo`; the output as a Buffer. A failure throws GitError naming the repository. */
  run(repo: string, args: readonly string[], input?: string): Buffer {
    const result = this.spawn(repo, args, input);
    if (result.status !== 0) {
      const why = firstLine(result.stderr.toString('utf8')) || `exit code ${result.status}`;
      throw new GitError(`git ${args.find((a) => !a.startsWith('-')) ?? ''} failed in ${repo}: ${why}`);
    }
    return result.stdout;
  }

  /** Run git in `repo`; null instead of an error when git exits non-zero (a question, not a task). */
  tryRun(repo: string, args: readonly string[], input?: string): Buffer | null {
    const result = this.spawn(repo, args, input);
    return result.status === 0 ? result.stdout : null;
  }

  /**
   * Run git in `repo`; null when git fails with a message matching `expected` (an answer such as
   * "no such path in HEAD"), GitError naming the repository for any other failure.
   */
  runExpecting(repo: string, args: readonly string[], expected: RegExp): Buffer | null {
    const result = this.spawn(repo, args);
    if (result.status === 0) return result.stdout;
    const stderr = result.stderr.toString('utf8');
    if (expected.test(stderr)) return null;
    throw new GitError(`git ${args.find((a) => !a.startsWith('-')) ?? ''} failed in ${repo}: ${firstLine(stderr) || `exit code ${result.status}`}`);
  }

  /**
   * `filter.<driver>.clean`/`smudge`/`process` run programs whenever git reads a working-tree file
   * (blame, a diff against the working tree). An empty command is no filter, so each driver the
   * repository's config defines (includes followed) is emptied on the command line, which wins
   * over every config file. Reading the config runs nothing. One `git config` per repository.
   */
  private safeSettings(repo: string): string[] {
    let settings = this.noFilters.get(repo);
    if (settings) return settings;
    const result = this.exec(repo, ['config', '-z', '--get-regexp', '^filter\\.'], undefined, []);
    const drivers = new Set<string>();
    // Exit 1: no such key. Anything else (not a repository) is for the real command to report.
    if (result.status === 0) {
      for (const record of result.stdout.toString('utf8').split('\0')) {
        const key = record.split('\n', 1)[0]!;
        const m = /^filter\.(.+)\.[^.]+$/s.exec(key);
        if (m) drivers.add(m[1]!);
      }
    }
    settings = ['-c', 'core.fsmonitor=false'];
    for (const d of drivers) for (const k of ['clean', 'smudge', 'process']) settings.push('-c', `filter.${d}.${k}=`);
    for (const d of drivers) settings.push('-c', `filter.${d}.required=false`);
    this.noFilters.set(repo, settings);
    return settings;
  }

  private spawn(repo: string, args: readonly string[], input?: string) {
    return this.exec(repo, args, input, this.safeSettings(repo));
  }

  private exec(repo: string, args: readonly string[], input: string | undefined, settings: readonly string[]) {
    this.spawned++;
    const result = spawnSync('git', ['-c', 'core.quotepath=off', '-c', 'color.ui=false', ...settings, ...args], {
      cwd: repo,
      env: this.env,
      input,
      maxBuffer: 1024 * 1024 * 1024,
      windowsHide: true,
    });
    this.bytesRead += result.stdout?.length ?? 0;
    if (result.error) {
      const code = (result.error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new UsageError('git is not installed (or not on PATH): --drift and --fix need the git command', { code: 'git_missing' });
      throw new GitError(`git failed in ${repo}: ${result.error.message}`);
    }
    return result;
  }
}

/** git itself failed (a corrupt repository, a bad --since revision): exit 1, one line. */
export class GitError extends RefcatError {
  constructor(message: string) {
    super(message, { code: 'git_failed' });
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.trim();
}
