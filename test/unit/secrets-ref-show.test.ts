import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: `ref show` prints a transcript's or the store's ref redacted.

const FAKES = fakeSecrets();

describe('ref show redacts every rule of the preset', () => {
  it.each(FAKES.map((s) => [`${s.rule} in ${s.file}`, s] as const))('%s: xml, --raw, --json, from a transcript and from the store', async (_, s) => {
    const answer = `Here:\n<ref id="leak">\n// before\n${s.text}\n// after\n</ref>\n`;
    const dir = tmpDir({ 'answer.md': answer });
    const scan = await refcatInProcess(['ref', 'scan', 'answer.md', '--store', 'store'], { cwd: dir });
    expect(scan.code, scan.stderr).toBe(0);
    for (const from of [['--from', 'answer.md'], ['--store', 'store']]) {
      for (const format of [[], ['--raw'], ['--json']]) {
        const r = await refcatInProcess(['ref', 'show', 'leak', ...from, ...format], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.includes(s.value), `${s.rule} printed`).toBe(false);
        expect(r.stderr.includes(s.value)).toBe(false);
        expect(r.stdout).toContain('// before');
        expect(r.stdout).toContain('[REDACTED ');
        expect(r.stderr).toMatch(/^Warning: redacted .+ at ref:leak:\d+$/m);
      }
    }
  });

  it('lines keep their place: a five-line private key stays five lines', async () => {
    const key = FAKES.find((s) => s.rule === 'privatekey')!;
    const dir = tmpDir({ 'answer.md': `<ref id="k">\n// before\n${key.text}\n// after\n</ref>\n` });
    const r = await refcatInProcess(['ref', 'show', 'k', '--from', 'answer.md', '--raw'], { cwd: dir });
    expect(r.stdout).toBe(['// before', ...Array(5).fill('[REDACTED privatekey]'), '// after', ''].join('\n'));
  });

  it('a clean ref is shown exactly, with no warning', async () => {
    const dir = tmpDir({ 'answer.md': '<ref id="fib">\ndef fib(n):\n    return n\n</ref>\n' });
    const r = await refcatInProcess(['ref', 'show', 'fib', '--from', 'answer.md', '--raw'], { cwd: dir });
    expect(r).toEqual({ code: 0, stdout: 'def fib(n):\n    return n\n', stderr: '' });
  });
});
