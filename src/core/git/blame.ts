import { lineRanges } from './arg-batches.js';
import type { GitRunner } from './git-runner.js';

/** What `git blame --porcelain` says of some lines of one file. */
export interface Blame {
  /** Line number -> the full sha of the commit that wrote it (all zeros: not committed yet). */
  byLine: Map<number, string>;
  /** Commit -> its committer time (seconds). */
  timeOf: Map<string, number>;
  /** Commits blame stopped at (`boundary`): in a shallow clone, the history is cut there. */
  boundary: Set<string>;
}

/** What `git blame` says (LC_ALL=C) of a file that has no commit yet. */
const NOT_COMMITTED = /no such path '.*' in HEAD|no such ref: HEAD|does not have any commits yet/;

/** More `-L` ranges than this in one file: its blame covers the whole file. */
const MAX_BLAME_RANGES = 500;

/**
 * The commits that wrote `lines` of the file `rel` (a path from the repository root), from one
 * `git blame`. Null when the file has no commit yet (git does not track it, or the repository has
 * no commit): its lines were written against the working tree. Any other failure (a corrupt
 * repository, a missing blame.ignoreRevsFile) is a GitError naming the repository.
 */
export async function blameLines(git: GitRunner, repo: string, rel: string, lines: readonly number[]): Promise<Blame | null> {
  const ranges = lineRanges([...new Set(lines)].sort((a, b) => a - b));
  // Lines far apart, each its own `-L`, would make a command line as long as the doc: past
  // MAX_BLAME_RANGES the whole file is blamed, in the same one run.
  const only = ranges.length > MAX_BLAME_RANGES ? [] : ranges.flatMap(([a, b]) => ['-L', `${a},${b}`]);
  const out = await git.runExpecting(repo, ['blame', '--porcelain', '--no-textconv', ...only, '--', rel], NOT_COMMITTED);
  return out === null ? null : parseBlame(out.toString('utf8'));
}

function parseBlame(text: string): Blame {
  const byLine = new Map<number, string>();
  const timeOf = new Map<string, number>();
  const boundary = new Set<string>();
  let sha = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/.exec(line);
    if (head) {
      sha = head[1]!;
      byLine.set(Number(head[2]), sha);
    } else if (line.startsWith('committer-time ')) {
      timeOf.set(sha, Number(line.slice('committer-time '.length)));
    } else if (line === 'boundary') {
      boundary.add(sha);
    }
  }
  return { byLine, timeOf, boundary };
}
