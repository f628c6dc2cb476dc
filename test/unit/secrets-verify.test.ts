import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SecretScanner } from '../../src/core/secrets/secret-scan.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { GitRepo } from '../helpers/git-repo.js';

// docs/refs.md#secrets: verify refs compares, quotes and writes snippets from redacted lines.

// Each in a folder: a bare `@id_rsa` is no ref (docs/refs.md).
const FAKES = fakeSecrets().map((s) => ({ ...s, file: `code/${s.file}` }));
const noValue = (out: string, s: (typeof FAKES)[number]) => expect(out.includes(s.value), `${s.rule} (${s.file}) printed`).toBe(false);
/** The code file: the secret between two lines; the doc's snippet copied it, and a line since gone. */
const codeOf = (s: (typeof FAKES)[number]) => `// before\n${s.text}\n// after\n`;
const docOf = (s: (typeof FAKES)[number]) => `# Doc\n\n\`\`\`text\n// @${s.file}\n// before\n${s.text}\n// gone\n\`\`\`\n\nSee @${s.file}#/zzz-not-there/.\n`;

describe.each(FAKES.map((s) => [`${s.rule} in ${s.file}`, s] as const))('%s', (_, s) => {
  it('verify refs (text, --json, --format github) never prints it, and a copied secret still matches the code', async () => {
    const dir = tmpDir({ [s.file]: codeOf(s), 'doc.md': docOf(s) });
    for (const args of [[], ['--json'], ['--format', 'github']]) {
      const r = await refcatInProcess(['verify', 'refs', 'doc.md', ...args], { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      noValue(r.stdout + r.stderr, s);
      if (args[0] === '--json') {
        const entry = JSON.parse(r.stdout).snippets.refs[0];
        expect(entry.status).toBe('stale');
        // Only the line the code lost is missing: the secret's line matched the code's, both redacted.
        expect(entry.missing_lines).toEqual(['// gone']);
      }
    }
  });

  it('--fix-snippets refreshes a copy whose code now holds it with the redacted line, and the doc stays verified after', async () => {
    // As many placeholder lines as the secret's text has, so the range still selects it after.
    const n = s.text.split('\n').length;
    const base = `// before\n${'// placeholder\n'.repeat(n)}// after\n`;
    const doc = `# Doc\n\n\`\`\`text\n// @${s.file}#L1-L${n + 2}\n${base}\`\`\`\n`;
    const repo = GitRepo.init({ [s.file]: base, 'doc.md': doc });
    repo.commit('plant', { [s.file]: codeOf(s) });
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--fix-snippets'], { cwd: repo.dir });
    noValue(r.stdout + r.stderr, s);
    expect(r.stdout).toContain('REFRESHED doc.md:4');
    const written = fs.readFileSync(path.join(repo.dir, 'doc.md'), 'utf8');
    noValue(written, s);
    expect(written).toContain('[REDACTED ');
    expect(written).not.toContain('// placeholder');
    const again = await refcatInProcess(['verify', 'refs', 'doc.md', '--json'], { cwd: repo.dir });
    noValue(again.stdout + again.stderr, s);
    expect(JSON.parse(again.stdout).snippets.refs[0].status).toBe('verbatim');
  });

  it('a doc holding the redacted copy is refreshed by --fix-snippets when the code changes around the secret', async () => {
    const n = s.text.split('\n').length;
    const repo = GitRepo.init({ [s.file]: codeOf(s), 'doc.md': '# Doc\n' });
    // The doc as --cite and --fix-snippets write it: the redacted lines, verbatim at base.
    const cited = await refcatInProcess([`@${s.file}#L1-L${n + 2}`, '-q'], { cwd: repo.dir });
    repo.commit('cite', { 'doc.md': `# Doc\n\n\`\`\`text\n// @${s.file}#L1-L${n + 2}\n${cited.stdout}\`\`\`\n` });
    repo.commit('edit', { [s.file]: codeOf(s).replace('// before', '// before, edited') });
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--fix-snippets'], { cwd: repo.dir });
    noValue(r.stdout + r.stderr, s);
    expect(r.stdout, r.stdout).toContain('REFRESHED doc.md:4');
    const written = fs.readFileSync(path.join(repo.dir, 'doc.md'), 'utf8');
    noValue(written, s);
    expect(written).toContain('// before, edited');
  });
});

describe('a message that quotes a line quotes it redacted', () => {
  // The pattern matches the secret's first line without spelling any of it.
  const ref = (s: (typeof FAKES)[number]) => `@${s.file}#/^(?!\\/\\/ )./:function`;
  it.each(FAKES.map((s) => [`${s.rule} in ${s.file}`, s] as const))('%s: extraction, verify refs (text, --json, --format github)', async (_, s) => {
    const dir = tmpDir({ [s.file]: codeOf(s), 'doc.md': `See ${ref(s)}.\n` });
    const runs = [
      await refcatInProcess([ref(s)], { cwd: dir }),
      await refcatInProcess([ref(s), '--json'], { cwd: dir }),
      ...(await Promise.all([[], ['--json'], ['--format', 'github']].map((args) => refcatInProcess(['verify', 'refs', 'doc.md', ...args], { cwd: dir })))),
    ];
    // A file of no known language has no declarations to judge (the ref may pass): nothing printed holds it either way.
    for (const r of runs) noValue(r.stdout + r.stderr, s);
    if (s.file === 'code/src/config.ts') expect(runs[0]!.stderr).toContain('does not look like a function declaration: export const token = "[REDACTED github]"');
  });
});

describe('one scan of secrets for a whole run', () => {
  it('every ref of every doc shares the run scanner: a file cited many times is scanned once, `.secretlintignore` read once', async () => {
    const s = FAKES[0]!;
    const docs: Record<string, string> = { [s.file]: codeOf(s) };
    for (let i = 0; i < 4; i++) docs[`doc${i}.md`] = docOf(s);
    const dir = tmpDir(docs);
    const file = vi.spyOn(SecretScanner.prototype, 'file');
    try {
      const r = await refcatInProcess(['verify', 'refs', '.', '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(1);
      noValue(r.stdout + r.stderr, s);
      // Each doc's snippet is judged (stale, only the lost line missing), each with the same verdict.
      const entries = JSON.parse(r.stdout).snippets.refs as { status: string; missing_lines: string[] }[];
      expect(entries).toHaveLength(4);
      for (const e of entries) expect(e.missing_lines).toEqual(['// gone']);
      expect(file.mock.calls.length).toBeGreaterThanOrEqual(4);
      expect(new Set(file.mock.contexts).size).toBe(1);
    } finally {
      file.mockRestore();
    }
  });
});
