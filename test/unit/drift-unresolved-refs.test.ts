import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

// docs/reference.md#drift-verdicts: --drift gives one entry for every ref found, and the summary
// counts them all, also for refs it cannot follow at all: an alias no source defines, a ref that
// does not parse, an alias file that is malformed.

interface DriftJson {
  refs_found: number;
  drift: Record<string, number> & { refs: { file: string; line: number; ref: string; status: string; reason: string | null }[] };
}

const STATUSES = ['unchanged', 'moved', 'changed', 'deleted', 'unknown', 'anchored', 'fixed', 'accepted'];

function workspace(): GitRepo {
  return GitRepo.init({
    'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }] }) + '\n',
    'externals/Trio/t.js': numbered('t', 5),
    'src/a.js': numbered('a', 5),
    'docs/a.md': 'See @src/a.js#L1-L2 and trio:t.js#L2.\nThen tiro:t.js#L3 (a typo), tiro:t.js (whole file) and @src/a.js#L4-L2.\n',
    'flows/f.conv': 'REFCAT tiro:t.js#L1-L2\nPROMPT go\n',
  });
}

describe('verify refs --drift: refs it cannot resolve still get an entry', () => {
  it('--json: one entry per ref found, unknown with the reason, and the counts add up to refs_found', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', 'docs', 'flows'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as DriftJson;
    expect(doc.refs_found).toBe(6);
    expect(doc.drift.refs.map((e) => [e.file, e.line, e.ref, e.status, e.reason])).toEqual([
      ['docs/a.md', 1, '@src/a.js#L1-L2', 'unchanged', null],
      ['docs/a.md', 1, 'trio:t.js#L2', 'unchanged', null],
      ['docs/a.md', 2, 'tiro:t.js#L3', 'unknown', "Unknown REFCAT alias: 'tiro' in tiro:t.js#L3 (did you mean trio?)"],
      ['docs/a.md', 2, 'tiro:t.js', 'unknown', "Unknown REFCAT alias: 'tiro' in tiro:t.js (did you mean trio?)"],
      ['docs/a.md', 2, '@src/a.js#L4-L2', 'unknown', 'Cannot parse ref: @src/a.js#L4-L2 (start line 4 is after end line 2)'],
      ['flows/f.conv', 1, 'tiro:t.js#L1-L2', 'unknown', "Unknown REFCAT alias: 'tiro' in tiro:t.js#L1-L2 (did you mean trio?)"],
    ]);
    expect(doc.drift.unknown).toBe(4);
    expect(STATUSES.reduce((n, s) => n + doc.drift[s]!, 0)).toBe(doc.refs_found);
  });

  it('text: the summary counts them; each keeps its ERROR line and gets no UNKNOWN line besides', async () => {
    const repo = workspace();
    const r = await refcatInProcess(['verify', 'refs', '--drift', 'docs', 'flows'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('✗ FAILED: Scanned 2 file(s), found 6 reference(s): 2 valid, 4 broken; drift: 2 unchanged, 0 moved, 0 changed, 0 deleted, 4 unknown, 0 anchored');
    expect(lines.filter((l) => l.startsWith('  ERROR '))).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith('  UNKNOWN '))).toEqual([]);
  });

  it('a malformed alias file: its alias refs are unknown with the file\'s error', async () => {
    const repo = GitRepo.init({
      'workspace.lock.json': '{"repos": [',
      'docs/a.md': 'See trio:t.js#L2.\n',
    });
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', 'docs'], { cwd: repo.dir });
    const doc = JSON.parse(r.stdout) as DriftJson;
    expect(doc.refs_found).toBe(1);
    expect(doc.drift.refs).toHaveLength(1);
    expect(doc.drift.refs[0]).toMatchObject({ ref: 'trio:t.js#L2', status: 'unknown', reason: expect.stringMatching(/^Invalid config file .*workspace\.lock\.json: /) });
  });
});
