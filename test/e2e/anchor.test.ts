import { describe, expect, it } from 'vitest';
import { refcat } from '../helpers/cli.js';
import { GitRepo } from '../helpers/git-repo.js';

/**
 * `refcat anchor` at the process edge (docs/drift.md#anchoring): the built bin loads a grammar,
 * writes the doc and exits; help and usage errors. Behaviour in detail: test/unit/anchor.test.ts.
 */

const PARSE_PY = [
  'import os', // 1
  '', // 2
  '', // 3
  '@cache', // 4
  'def parse(text):', // 5
  '    """Split on commas."""', // 6
  '    return [p.strip() for p in text.split(",")]', // 7
  '', // 8
  '', // 9
  'def other():', // 10
  '    return os.sep', // 11
].join('\n') + '\n';

describe('refcat anchor (the bin)', () => {
  it('anchors a doc in place, exits 0, and a second run finds nothing to anchor', () => {
    const repo = GitRepo.init({ 'lib/parse.py': PARSE_PY, 'README.md': 'Parsing: @lib/parse.py#L4-L7, inside: @lib/parse.py#L7\n' });
    const r = refcat(['anchor'], { cwd: repo.dir });
    expect(r).toEqual({
      code: 0,
      stdout: 'Anchored 1 of 2 references by name in 1 file (1 left as written; scanned 1 file)\n  ANCHORED README.md:1: @lib/parse.py#L4-L7 → @lib/parse.py#parse\n',
      stderr: '',
    });
    expect(repo.read('README.md')).toBe('Parsing: @lib/parse.py#parse, inside: @lib/parse.py#L7\n');
    const again = refcat(['anchor', '--json'], { cwd: repo.dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ anchored: [], left: 2 });
  });

  it('--help exits 0; a missing path and a wrong flag are one-line usage errors (exit 2)', () => {
    const repo = GitRepo.init({ 'lib/parse.py': PARSE_PY });
    const help = refcat(['anchor', '--help'], { cwd: repo.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: refcat anchor [options] [paths...]');
    expect(help.stdout).toContain('--drift');
    const missing = refcat(['anchor', 'docs/'], { cwd: repo.dir });
    expect([missing.code, missing.stdout]).toEqual([2, '']);
    expect(missing.stderr).toMatch(/^Error: [^\n]*docs\/?[^\n]*\n$/);
    const flag = refcat(['anchor', '--frobnicate'], { cwd: repo.dir });
    expect([flag.code, flag.stdout]).toEqual([2, '']);
    expect(flag.stderr).toMatch(/^Error: unknown option '--frobnicate'\n$/);
  });
});
