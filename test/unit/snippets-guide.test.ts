import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';

const ROOT = path.resolve(__dirname, '../..');

describe('docs/snippets.md: the real example', () => {
  it('prints what the page shows, and exits 1', async () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/snippets.md'), 'utf8');
    const shown = /```console\n\$ refcat verify refs docs\n([\s\S]*?)\$ echo \$\?\n(\d+)\n```/.exec(page);
    expect(shown).not.toBeNull();
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: path.join(ROOT, 'fixtures/snippets-guide') });
    expect(r.stdout).toBe(shown![1]);
    expect(String(r.code)).toBe(shown![2]);
    expect(r.stderr).toBe('');
  });
});
