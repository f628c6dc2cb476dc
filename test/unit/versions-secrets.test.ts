import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

/**
 * Refs at a version and the secret check together (docs/refs.md#secrets,
 * docs/refs.md#refs-at-a-version): what is checked is the text printed, the version's, never the
 * checkout's copy of the same path.
 */
const slack = fakeSecrets().find((s) => s.rule === 'slack')!;

function pinnedWorkspace(atPin: string, inCheckout: string) {
  const ws = tmpDir();
  const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
  const pin = ext.commit('c1', { 'notify.py': atPin });
  ext.commit('c2', { 'notify.py': inCheckout });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }));
  return { ws, pin };
}

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

describe('secrets in a file read at a version', () => {
  const withSecret = `def send():\n    ${slack.text}\n    return 1\n`;
  const clean = `def send():\n    TOKEN = None\n    return 1\n`;

  it.each([['a range', 'ext:notify.py#L1-L3'], ['a whole file', 'ext:notify.py'], ['a symbol ref', 'ext:notify.py#send']])(
    'a secret only at the pin is redacted (%s), its line kept',
    async (_, ref) => {
      const { ws } = pinnedWorkspace(withSecret, clean);
      const r = await run(ws, ref);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(slack.value);
      expect(r.stdout).toContain('[REDACTED');
      expect(r.stdout).toContain('return 1');
      expect(r.stdout).not.toContain('TOKEN = None');
      expect(r.stderr).toMatch(/Warning: redacted .* at ext:notify\.py:2/);
    },
  );

  it.each([['a range', 'ext:notify.py#L1-L3'], ['a symbol ref', 'ext:notify.py#send']])(
    'a secret only in the checkout leaves the pinned text as it is (%s)',
    async (_, ref) => {
      const { ws } = pinnedWorkspace(clean, withSecret);
      const r = await run(ws, ref);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('TOKEN = None');
      expect(r.stdout).not.toContain('[REDACTED');
      expect(r.stdout + r.stderr).not.toContain(slack.value);
      expect(r.stderr).not.toContain('redacted');
    },
  );

  it('the same path read at the pin and in the checkout in one run: each checked as it is', async () => {
    const { ws, pin } = pinnedWorkspace(clean, withSecret);
    const r = await run(ws, '--json', 'ext:notify.py', `ext@HEAD:notify.py`);
    const out = JSON.parse(r.stdout) as { refs: { commit: string; content: string; redacted?: unknown[] }[] };
    const [atPin, atHead] = out.refs;
    expect(atPin!.commit).toBe(pin);
    expect(atPin!.content).toContain('TOKEN = None');
    expect(atPin!.redacted).toBeUndefined();
    expect(atHead!.content).toContain('[REDACTED');
    expect(atHead!.redacted).toEqual([expect.objectContaining({ line: 2 })]);
    expect(r.stdout + r.stderr).not.toContain(slack.value);
  });
});

describe('--outline of a file read at a version', () => {
  it('outlines the pinned text, not the checkout', async () => {
    const ws = tmpDir();
    const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
    const pin = ext.commit('c1', { 'mod.py': 'def at_the_pin():\n    a = 1\n    b = 2\n    return a + b\n' });
    ext.commit('c2', { 'mod.py': 'def in_the_checkout():\n    return 0\n' });
    fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }));
    const r = await run(ws, '--outline', 'ext:mod.py');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('def at_the_pin():');
    expect(r.stdout).not.toContain('in_the_checkout');
    const w = await run(ws, '--outline', '--worktree', 'ext:mod.py');
    expect(w.stdout).toContain('def in_the_checkout():');
  });
});
