import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: `fd read` checks the whole content before cutting pages from it.

const FAKES = fakeSecrets();
const text = (s: (typeof FAKES)[number]) => (s.rule === 'gcp' ? `${s.text}\n` : `// before\n${s.text}\n// after\n`);

/** Every page of `args` (page size 8), raw, joined: what an agent reading them all would see. */
async function allPages(args: string[], cwd: string, input?: string): Promise<{ pages: string; stderr: string }> {
  let pages = '';
  let stderr = '';
  for (let page = 1; ; page++) {
    const r = await refcatInProcess(['fd', 'read', ...args, '--page-size', '8', '--format', 'raw', '--page', String(page)], { cwd, input });
    if (r.code !== 0) break;
    pages += r.stdout;
    stderr += r.stderr;
  }
  return { pages, stderr };
}

describe('fd read: no page spells a secret', () => {
  it.each(FAKES.map((s) => [`${s.rule} in ${s.file}`, s] as const))('%s: a file, and piped, in pages of 8 characters', async (_, s) => {
    const dir = tmpDir({ [s.file]: text(s) });
    const env = { cwd: dir };
    // Piped text has no name: the preset checks `_authToken=` only in a file named .npmrc.
    const piped = s.file === '.npmrc' ? [] : ([[[], text(s)]] as const);
    for (const [args, input] of [[[s.file], undefined] as const, ...piped]) {
      const { pages, stderr } = await allPages([...args], env.cwd, input);
      expect(pages).not.toContain(s.value);
      // No page holds a piece of it either: the pages rejoin to the redacted text.
      expect(pages).toMatch(/\[REDACTED [a-z0-9-]+\]/);
      expect(stderr).not.toContain(s.value);
      expect(stderr).toMatch(/Warning: redacted .+ at (stdin|.+):\d+/);
    }
  });

  it('the pages of a file with a secret keep its line numbers and other bytes', async () => {
    const s = FAKES.find((f) => f.rule === 'privatekey')!;
    const dir = tmpDir({ key: `a\r\n${s.text}\nb\n` });
    const r = await refcatInProcess(['fd', 'read', 'key', '--all', '--format', 'raw'], { cwd: dir });
    expect(r.stdout).toBe(`a\r\n${Array(5).fill('[REDACTED privatekey]\n').join('')}b\n`);
    const lines = await refcatInProcess(['fd', 'read', 'key', '--lines', '7', '--format', 'raw'], { cwd: dir });
    expect(lines.stdout).toBe('b\n');
  });

  it('a file with a secret is paged in place, by its path, on every call: nothing stored', async () => {
    const s = FAKES.find((f) => f.rule === 'github')!;
    const dir = tmpDir({ 'cfg.ts': `${'// line\n'.repeat(30)}${s.text}\n` });
    const fds: string[] = [];
    for (const page of ['1', '2', '3']) {
      const r = await refcatInProcess(['fd', 'read', 'cfg.ts', '--page-size', '64', '--page', page, '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      fds.push((JSON.parse(r.stdout) as { fd: string }).fd);
    }
    expect(fds).toEqual(['cfg.ts', 'cfg.ts', 'cfg.ts']);
    const first = await refcatInProcess(['fd', 'read', 'cfg.ts', '--page-size', '64', '--json'], { cwd: dir });
    expect(first.stdout).not.toContain('fd:');
    const list = await refcatInProcess(['fd', 'list', '--json'], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toContain('fd:');
  });

  it('clean content is paged as it is, without a warning', async () => {
    const dir = tmpDir({ a: 'x\ny\n' });
    expect(await refcatInProcess(['fd', 'read', 'a', '--all', '--format', 'raw'], { cwd: dir })).toEqual({ code: 0, stdout: 'x\ny\n', stderr: '' });
  });
});
