import { argBatches, PATHS_PER_CALL } from './arg-batches.js';
import type { GitRunner } from './git-runner.js';

/** A commit's full sha and committer time (seconds). */
export interface CommitStamp {
  sha: string;
  time: number;
}

/**
 * The commit a revision names (`rev^{commit}`: a tag is peeled) and its time; null when git
 * knows no such commit. The caller has checked that `rev` is no option (does not start with `-`).
 */
export async function commitOf(git: GitRunner, repo: string, rev: string): Promise<CommitStamp | null> {
  const out = await git.tryRun(repo, ['log', '-1', '--no-walk', '--format=%H %ct', `${rev}^{commit}`, '--']);
  const m = out && /^([0-9a-f]{40,64}) (\d+)/.exec(out.toString('utf8'));
  return m ? { sha: m[1]!, time: Number(m[2]) } : null;
}

/** The last commit of `ref` at or before `time` (seconds), or null; a failure of git is a GitError. */
export async function lastCommitBefore(git: GitRunner, repo: string, ref: string, time: number): Promise<string | null> {
  const out = await git.run(repo, ['rev-list', '-1', `--before=${time}`, ref, '--']);
  return out.toString('utf8').trim() || null;
}

/** The last commit of HEAD at or before `time`, or null, also when git cannot say (no commit yet). */
export async function headCommitBefore(git: GitRunner, repo: string, time: number): Promise<string | null> {
  const out = await git.tryRun(repo, ['rev-list', '-1', `--before=${time}`, 'HEAD', '--']);
  return out ? out.toString('utf8').trim() || null : null;
}

/** The full names of the refs matching `patterns` (as `git for-each-ref` matches them). */
export async function refsNamed(git: GitRunner, repo: string, patterns: readonly string[]): Promise<string[]> {
  const listed: string[] = [];
  for (const batch of argBatches(patterns, PATHS_PER_CALL)) {
    listed.push(...(await git.run(repo, ['for-each-ref', '--format=%(refname)', '--', ...batch])).toString('utf8').split('\n').filter(Boolean));
  }
  return listed;
}

/**
 * The full sha of the commit `rev` names, or null when it names none (unknown, or a tree or
 * blob). The revision reaches git only after `--end-of-options`, as `rev^{commit}`, so no name
 * is ever read as an option and nothing but a commit is ever answered.
 */
/**
 * Whether a branch, a remote-tracking branch or a tag of the repository holds `commit` (a full
 * sha): a commit no name reaches (dropped, stashed, fetched by id) is not one a server reads.
 */
export async function reachableFromRef(git: GitRunner, repo: string, commit: string): Promise<boolean> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return false;
  const out = await git.run(repo, ['for-each-ref', '--count=1', '--format=%(refname)', `--contains=${commit}`, '--', 'refs/heads/', 'refs/remotes/', 'refs/tags/']);
  return out.toString('utf8').trim() !== '';
}

export async function resolveCommit(git: GitRunner, repo: string, rev: string): Promise<string | null> {
  const out = await git.tryRun(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  const m = out && /^([0-9a-f]{40,64})\s*$/.exec(out.toString('utf8'));
  return m ? m[1]! : null;
}
