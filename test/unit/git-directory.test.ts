import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitDirectoryMadeBy, gitDirectoryOf, isGitDirectory } from '../../src/shared/git-directory.js';
import { tmpDir } from '../helpers/tmp.js';

// Differential: every folder git itself takes for a git directory (discovered from inside it, with
// nothing above it to find) is one to isGitDirectory; refusing a little more is the safe side.

const PIECES = ['HEAD', 'objects', 'refs', 'commondir'] as const;

/** A folder holding the pieces of `mask` (bit i: PIECES[i]), as git would write them. */
function folder(mask: number): string {
  const top = tmpDir();
  fs.mkdirSync(path.join(top, 'common', 'objects'), { recursive: true });
  fs.mkdirSync(path.join(top, 'common', 'refs'));
  const dir = path.join(top, 'd');
  fs.mkdirSync(dir);
  if (mask & 1) fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  if (mask & 2) fs.mkdirSync(path.join(dir, 'objects'));
  if (mask & 4) fs.mkdirSync(path.join(dir, 'refs'));
  if (mask & 8) fs.writeFileSync(path.join(dir, 'commondir'), '../common\n');
  return dir;
}

function gitTakes(dir: string): boolean {
  const r = spawnSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(dir) } });
  return r.status === 0 && fs.realpathSync(r.stdout.trim()) === fs.realpathSync(dir);
}

describe('isGitDirectory against git', () => {
  for (let mask = 0; mask < 16; mask++) {
    const held = PIECES.filter((_, i) => mask & (1 << i)).join(' + ') || 'nothing';
    it(`a folder holding ${held}`, () => {
      const dir = folder(mask);
      const ours = isGitDirectory(dir);
      const git = gitTakes(dir);
      if (git) expect(ours).toBe(true);
      // The two shapes git is known to take: the differential is not vacuous.
      if (mask === 7 || mask === 9) expect(git).toBe(true);
      // Ours is exactly HEAD with commondir, or with objects/ and refs/.
      expect(ours).toBe(Boolean(mask & 1) && (Boolean(mask & 8) || (mask & 6) === 6));
    });
  }

  it('a real bare repository and a real .git are git directories; an ordinary folder is not', () => {
    const top = tmpDir({ 'src/a.ts': '' });
    expect(spawnSync('git', ['init', '-q', '--bare', 'mirror'], { cwd: top }).status).toBe(0);
    expect(spawnSync('git', ['init', '-q', 'work'], { cwd: top }).status).toBe(0);
    expect(isGitDirectory(path.join(top, 'mirror'))).toBe(true);
    expect(isGitDirectory(path.join(top, 'work', '.git'))).toBe(true);
    expect(isGitDirectory(path.join(top, 'src'))).toBe(false);
  });
});

describe('gitDirectoryOf and gitDirectoryMadeBy', () => {
  it('finds the git directory above a file, only below the top when one is given', () => {
    const top = tmpDir();
    expect(spawnSync('git', ['init', '-q', '--bare', 'vendor/mirror'], { cwd: top }).status).toBe(0);
    const file = path.join(top, 'vendor', 'mirror', 'info', 'x');
    expect(gitDirectoryOf(file, null)).toBe(path.join(top, 'vendor', 'mirror'));
    expect(gitDirectoryOf(file, top)).toBe(path.join(top, 'vendor', 'mirror'));
    // The top itself is not judged: a root that is a git directory is the user's choice.
    expect(gitDirectoryOf(file, path.join(top, 'vendor', 'mirror'))).toBeNull();
    expect(gitDirectoryOf(path.join(top, 'a', '.Git', 'config'), top)).toBe(path.join(top, 'a', '.Git'));
    expect(gitDirectoryOf(path.join(top, 'a', 'b.md'), top)).toBeNull();
  });

  it('names the folder a write would complete, and what completes it', () => {
    const top = tmpDir({ 'lib/HEAD': 'ref: refs/heads/main\n', 'lib/objects/x': '' });
    expect(gitDirectoryMadeBy(path.join(top, 'lib', 'refs', 'heads', 'main'))).toEqual({ dir: path.join(top, 'lib'), marks: 'HEAD, objects/ and refs/' });
    expect(gitDirectoryMadeBy(path.join(top, 'lib', 'commondir'))).toEqual({ dir: path.join(top, 'lib'), marks: 'HEAD and commondir' });
    expect(gitDirectoryMadeBy(path.join(top, 'lib', 'config'))).toBeNull();
    expect(gitDirectoryMadeBy(path.join(top, 'other', 'refs', 'x'))).toBeNull();
  });
});
