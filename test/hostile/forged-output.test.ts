import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// Names anyone can choose (a folder in a pull request, an alias in a lockfile, a file an agent
// pages) must not forge output lines: a GitHub workflow command, a table row, a terminal title.

const controls = /[\x00-\x08\x0b-\x1f\x7f]/;

describe('GitHub workflow commands', () => {
  const folder = 'x\n::error file=README.md,line=1::FORGED\n::add-mask::';

  /** Every line starts a workflow command refcat meant, or is the summary. */
  const forged = (stdout: string) => stdout.split('\n').filter((l) => /^::(error|add-mask|warning)\b/.test(l) && !l.startsWith('::error file=doc.md') && !l.startsWith('::warning file=doc.md'));

  const tree = () => tmpDir({ [`${folder}/a.md`]: 'See @a.md\n', [`${folder}/.sdqctlignore`]: 'b.md\n', [`${folder}/b.md`]: 'x\n' });

  it('verify refs: the Skipped notice of a folder whose name holds workflow commands', async () => {
    const r = await refcatInProcess(['verify', 'refs', folder, '--format', 'github'], { cwd: tree() });
    expect(r.code).toBe(0);
    const notice = r.stdout.split('\n').find((l) => l.startsWith('::notice::'));
    expect(notice).toContain('Skipped 1 file that x\\x0a::error file=README.md');
    expect(forged(r.stdout)).toEqual([]);
    expect(r.stdout.split('\n').some((l) => l.startsWith('::add-mask'))).toBe(false);
  });

  it('verify refs, text: the Skipped line keeps to one line', async () => {
    const r = await refcatInProcess(['verify', 'refs', folder], { cwd: tree() });
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).not.toMatch(controls);
  });

  it('validate: the Skipped notice too', async () => {
    const dir = tmpDir({ [`${folder}/a.conv`]: 'MODEL gpt-4\nPROMPT hi\n', [`${folder}/.sdqctlignore`]: 'b.conv\n', [`${folder}/b.conv`]: 'MODEL x\nPROMPT hi\n' });
    const r = await refcatInProcess(['validate', folder, '--format', 'github'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('::notice::Skipped 1 file that x\\x0a::error');
    expect(r.stdout.split('\n').filter((l) => /^::(error|add-mask)/.test(l))).toEqual([]);
  });

  it('a broken ref in a file under that folder is one annotation, its message escaped', async () => {
    const dir = tmpDir({ [`${folder}/a.md`]: 'See @missing.md\n' });
    const r = await refcatInProcess(['verify', 'refs', '--format', 'github'], { cwd: dir });
    expect(r.code).toBe(1);
    const commands = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::error file=x%0A%3A%3Aerror file=README.md%2Cline=1%3A%3AFORGED%0A%3A%3Aadd-mask%3A%3A\/a.md,line=1::Broken reference: @missing.md/);
  });
});

describe('tables for people', () => {
  it('refcat aliases: a lockfile alias with a terminal escape and a newline is one escaped row', async () => {
    const name = 'evil\x1b]0;pwned\x07\n::error::forged';
    const lock = { externals_dir: 'ext', repos: [{ alias: name, name: 'r' }] };
    const dir = tmpDir({ 'workspace.lock.json': JSON.stringify(lock), 'ext/r/x': '' });
    const r = await refcatInProcess(['aliases'], { cwd: dir });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter(Boolean);
    // The alias, then the repository's name (an alias too).
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^evil\\x1b\]0;pwned\\x07\\x0a::error::forged +\//);
    expect(r.stdout).not.toMatch(controls);
    const json = JSON.parse((await refcatInProcess(['aliases', '--json'], { cwd: dir })).stdout);
    expect(json.aliases[0].name).toBe(name);
  });

  it('fd list: a source named with a terminal escape and a newline is one escaped row', async () => {
    const name = 't\x1b]0;pwned\x07\n::error::forged.md';
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, name), '<ref id="x">hi</ref>\n');
    const env = { REFCAT_STORE: path.join(dir, 'store') };
    const scan = await refcatInProcess(['ref', 'scan', name], { cwd: dir, env });
    expect(scan.code).toBe(0);
    const r = await refcatInProcess(['fd', 'list'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter(Boolean);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('t\\x1b]0;pwned\\x07\\x0a::error::forged.md');
    expect(r.stdout).not.toMatch(controls);
    const json = JSON.parse((await refcatInProcess(['fd', 'list', '--json'], { cwd: dir, env })).stdout);
    expect(json.entries[0].source).toContain(name);
  });
});
