import { type Hunk, parseFileDiffs } from './diff-hunks.js';
import type { GitRunner } from './git-runner.js';

/** A commit of a log and the paths it changed. */
export interface LoggedCommit {
  sha: string;
  /** Committer time, seconds. */
  time: number;
  /** How many parents it has (0 when the log was not asked for them). */
  parents: number;
  /** `status`: git's letter (A, M, D, R, C, T); `paths`: one, or two (from, to) for R and C. */
  changes: { status: string; paths: string[] }[];
}

/** One commit's diff of one file, as `git log -p` printed it. */
export interface CommitDiff {
  sha: string;
  /** The commit added the file. */
  added: boolean;
  /** Empty for a diff without any (binary, a mode change only). */
  hunks: Hunk[];
}

/**
 * Every commit that changed one of `rels` (paths from the repository root), newest first, with
 * the paths it changed among them. A merge counts by its diff to its first parent. No rename
 * following: a path-limited log cannot see where a file came from (commitChanges can). Null
 * when git cannot say (no commit yet).
 */
export async function pathLog(git: GitRunner, repo: string, rels: readonly string[]): Promise<LoggedCommit[] | null> {
  const args = ['--literal-pathspecs', 'log', '--no-follow', '--no-show-signature', '--diff-merges=first-parent', '--format=%x01%H %ct %P', '--name-status', '-z', '--', ...rels];
  const out = await git.tryRun(repo, args);
  return out ? parseNameStatus(out) : null;
}

/**
 * The commits `shas`, each with all its changes, renames and copies detected over the whole
 * commit (`-M`); `parents` is not asked (0). Null when git cannot say.
 */
export async function commitChanges(git: GitRunner, repo: string, shas: readonly string[]): Promise<LoggedCommit[] | null> {
  const out = await git.tryRun(repo, ['log', '--no-walk=unsorted', '--no-show-signature', '-M', '--format=%x01%H %ct', '--name-status', '-z', ...shas]);
  return out ? parseNameStatus(out) : null;
}

/**
 * The diffs of `rels` in every commit along HEAD's first parents that changed them, by path,
 * newest first. The diff is pinned to the one `git blame` computes, whatever the config says
 * (myers, the indent heuristic, no context, no renames, no textconv), so a line followed back
 * through these hunks lands where blame would. Null when git cannot say.
 */
export async function firstParentDiffs(git: GitRunner, repo: string, rels: readonly string[]): Promise<Map<string, CommitDiff[]> | null> {
  const args = [
    '--literal-pathspecs', 'log', '--first-parent', '--diff-merges=first-parent', '--no-follow', '--no-show-signature', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv',
    '--diff-algorithm=myers', '--indent-heuristic', '--inter-hunk-context=0', '--src-prefix=a/', '--dst-prefix=b/', '-U0', '-p', '--format=%x01%H', '--', ...rels,
  ]; // prettier-ignore
  const out = await git.tryRun(repo, args);
  return out ? commitDiffs(out.toString('utf8')) : null;
}

/** `git log -p --format=%x01%H` output: by path, the commits whose diff shows it, with their hunks. */
function commitDiffs(text: string): Map<string, CommitDiff[]> {
  const out = new Map<string, CommitDiff[]>();
  for (const record of text.split('\x01')) {
    const nl = record.indexOf('\n');
    if (nl === -1) continue;
    const sha = record.slice(0, nl).trim();
    for (const d of parseFileDiffs(record.slice(nl + 1))) {
      const path = d.newPath ?? d.oldPath;
      const diff = { sha, added: d.added, hunks: d.hunks };
      const list = out.get(path);
      if (list) list.push(diff);
      else out.set(path, [diff]);
    }
  }
  return out;
}

/** `git log --format=%x01%H %ct [%P] --name-status -z` output: commits and their changed paths. */
function parseNameStatus(out: Buffer): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const record of out.toString('utf8').split('\x01')) {
    if (record === '') continue;
    const [head = '', ...rest] = record.split('\0');
    const [sha = '', time = '0', ...parents] = head.split(' ');
    const fields = rest.map((f) => f.replace(/^\n/, '')).filter((f) => f !== '');
    const changes: { status: string; paths: string[] }[] = [];
    for (let i = 0; i < fields.length; ) {
      const status = fields[i]!;
      const count = status.startsWith('R') || status.startsWith('C') ? 2 : 1;
      changes.push({ status: status[0]!, paths: fields.slice(i + 1, i + 1 + count) });
      i += 1 + count;
    }
    commits.push({ sha, time: Number(time), parents: parents.filter(Boolean).length, changes });
  }
  return commits;
}
