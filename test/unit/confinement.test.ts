import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Confinement } from '../../src/core/safe-read/confinement.js';
import { tmpDir } from '../helpers/tmp.js';

describe('Confinement (refcat mcp reads)', () => {
  function setup() {
    const top = tmpDir({ 'root/src/a.ts': 'a\n', 'outside/secret.txt': 's\n', 'lib/x.ts': 'x\n' });
    const root = path.join(top, 'root');
    fs.symlinkSync(path.join(top, 'outside', 'secret.txt'), path.join(root, 'leak.txt'));
    fs.symlinkSync(path.join(top, 'outside'), path.join(root, 'leakdir'));
    fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'inner.ts'));
    return { top, root, c: new Confinement(root, [path.join(top, 'lib')]) };
  }

  // [path as the agent gives it, allowed?]
  const table: [string, boolean][] = [
    ['src/a.ts', true],
    ['src/missing/deeper.ts', true],
    ['inner.ts', true],
    ['.', true],
    ['../outside/secret.txt', false],
    ['src/../../outside/secret.txt', false],
    ['leak.txt', false],
    ['leakdir/secret.txt', false],
    ['leakdir/not-yet.txt', false],
    ['/etc/passwd', false],
  ];
  for (const [p, ok] of table) {
    it(`${p} => ${ok ? 'allowed' : 'refused'}`, () => {
      const { c } = setup();
      expect(c.allows(p)).toBe(ok);
      if (ok) expect(c.checkRead(p)).toBe(path.resolve(c.root, p));
      else expect(() => c.checkRead(p)).toThrow(/^Refused: .* is outside the root/);
    });
  }

  it('a snapshot (one command) judges every path of the table alike, asked twice', () => {
    const { top, root } = setup();
    const c = new Confinement(root, [path.join(top, 'lib')], { snapshot: true });
    for (const round of [1, 2]) for (const [p, ok] of table) expect(c.allows(p), `${p}, round ${round}`).toBe(ok);
  });

  it('a snapshot judges a symlinked file by its target, in a folder it already knows', () => {
    const { top, root } = setup();
    const c = new Confinement(root, [], { snapshot: true });
    expect(c.allows('src/a.ts')).toBe(true);
    fs.symlinkSync(path.join(top, 'outside', 'secret.txt'), path.join(root, 'src', 'late.txt'));
    expect(c.allows('src/late.txt')).toBe(false);
  });

  it('a .git folder is recognised by its real path, whatever the spelling', () => {
    const { root, c } = setup();
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    fs.symlinkSync(path.join(root, '.git'), path.join(root, 'gitlink'));
    const table: [string, boolean][] = [
      ['.git/config', true],
      ['.git/hooks/pre-commit', true],
      ['src/../.git/config', true],
      ['gitlink/config', true],
      ['src/a.ts', false],
      ['.gitignore', false],
      ['docs/.github/x.yml', false],
    ];
    for (const [p, inGit] of table) expect(c.inGitDir(p), p).toBe(inGit);
  });

  it('alias targets are readable, by absolute path too', () => {
    const { top, c } = setup();
    expect(c.allows(path.join(top, 'lib', 'x.ts'))).toBe(true);
    expect(c.allows(path.join(top, 'outside', 'secret.txt'))).toBe(false);
  });

  it('a config file it found is judged by its real path when found under the root, and is the user\'s when found outside', () => {
    const { top, root, c } = setup();
    fs.symlinkSync(path.join(top, 'outside', 'gone.json'), path.join(root, 'dangling.json'));
    // [file as found, allowed?]
    const table: [string, boolean][] = [
      [path.join(root, 'workspace.lock.json'), true],
      [path.join(root, 'inner.ts'), true],
      [path.join(root, 'leak.txt'), false],
      [path.join(root, 'leakdir', 'refcat-accepted.json'), false],
      [path.join(root, 'dangling.json'), false],
      [path.join(top, 'lib', 'x.ts'), true],
      [path.join(top, 'outside', 'secret.txt'), true],
      [path.join(top, 'workspace.lock.json'), true],
    ];
    for (const [file, ok] of table) expect(c.allowsFound(file), file).toBe(ok);
  });
});
