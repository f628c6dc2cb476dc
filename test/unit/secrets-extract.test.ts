import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';
import { fakeSecrets, pieces } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: every format of extraction redacts what secretlint's recommended preset finds.

const FAKES = fakeSecrets();
const files = Object.fromEntries(FAKES.map((s) => [s.file, s.rule === 'gcp' ? `${s.text}\n` : `// before\n${s.text}\n// after\n`]));
const noValue = (out: string) => {
  for (const s of FAKES) {
    expect(out.includes(s.value), `${s.rule} (${s.file}) printed`).toBe(false);
    // Not a part of it either: a rule's range that stops short leaves the tail printed.
    for (const piece of pieces(s.secret)) expect(out.includes(piece), `${s.rule} (${s.file}): ${piece} printed`).toBe(false);
  }
};
const fake = (rule: string, file?: string) => FAKES.find((s) => s.rule === rule && (file === undefined || s.file === file))!;

describe('extraction redacts every rule of the preset', () => {
  it.each(FAKES.map((s) => [`${s.rule} in ${s.file}`, s] as const))('%s: markdown, JSON, -q, --cite', async (_, s) => {
    const dir = tmpDir(files);
    for (const format of [[], ['--json'], ['-q'], ['--cite'], ['-C', '1']]) {
      const r = await refcatInProcess([`@${s.file}`, ...format], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      noValue(r.stdout + r.stderr);
      expect(r.stdout).toMatch(/\[REDACTED [a-z0-9-]+\]/);
      if (format[0] !== '--json') expect(r.stderr).toMatch(new RegExp(`^Warning: redacted .+ at ${s.file.replace(/\./g, '\\.')}:\\d+$`, 'm'));
    }
  });

  it('a glob of every file: nothing printed holds a value, one warning per finding', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@**/*', '--no-ignore'], { cwd: dir });
    expect(r.code).toBe(0);
    noValue(r.stdout + r.stderr);
    expect(r.stderr.match(/^Warning: redacted /gm)!.length).toBeGreaterThanOrEqual(FAKES.length);
  });

  it('--from-workflow: the refs a workflow holds are redacted too', async () => {
    const dir = tmpDir({ ...files, 'w.conv': `REFCAT @src/config.ts\nCONTEXT @id_rsa\nPROMPT x\n` });
    const r = await refcatInProcess(['--from-workflow', 'w.conv'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noValue(r.stdout + r.stderr);
    expect(r.stdout).toContain('[REDACTED github]');
    expect(r.stdout).toContain('[REDACTED privatekey]');
  });

  it('JSON: "redacted" lists each line and rule; the warning is in "warnings"', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@id_rsa', '--json'], { cwd: dir });
    const json = JSON.parse(r.stdout);
    expect(json.refs[0].redacted).toEqual([2, 3, 4, 5, 6].map((line) => ({ line, rule: 'privatekey' })));
    expect(json.warnings).toEqual([{ ref: '@id_rsa', code: 'secret_redacted', message: 'redacted a private key at id_rsa:2' }]);
    expect(r.stderr).toBe('');
  });
});

describe('around a redaction', () => {
  it('a five-line private key stays five lines; the lines around it and their numbers are unchanged', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@id_rsa', '-q'], { cwd: dir });
    expect(r.stdout).toBe(['// before', ...Array(5).fill('[REDACTED privatekey]'), '// after', ''].join('\n'));
    const numbered = await refcatInProcess(['@id_rsa#L6-L7'], { cwd: dir });
    expect(numbered.stdout).toContain('6 | [REDACTED privatekey]\n7 | // after\n');
  });

  it('a selection inside a key\'s body (#L3-L4) is redacted too', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@id_rsa#L3-L4', '-q'], { cwd: dir });
    expect(r.stdout).toBe('[REDACTED privatekey]\n[REDACTED privatekey]\n');
    expect(r.stderr).toBe('Warning: redacted a private key at id_rsa:2\n');
  });

  it('a pattern sees the redacted text: #/ghp_/ answers as if the token were not there', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir(files);
    const r = await refcatInProcess([`@src/config.ts#/${s.value.slice(0, 5)}/`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: Pattern /${s.value.slice(0, 5)}/ not found in @src/config.ts`);
    noValue(r.stdout + r.stderr);
    // ... and the marker itself can be found.
    const m = await refcatInProcess(['@src/config.ts#/REDACTED github/', '-q'], { cwd: dir });
    expect(m.stdout).toBe('export const token = "[REDACTED github]";\n// after\n');
  });

  it('a selection away from the secret prints as it is, without a warning', async () => {
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@src/config.ts#L3', '-q'], { cwd: dir });
    expect(r).toEqual({ code: 0, stdout: '// after\n', stderr: '' });
  });
});

describe('--secrets and .secretlintignore', () => {
  it('withhold: the file is left out with a note; fail: an error, exit 1; allow: as it is', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir(files);
    const withheld = await refcatInProcess(['@src/config.ts', '@deploy.md#L1', '--secrets=withhold'], { cwd: dir });
    expect(withheld.code).toBe(0);
    expect(withheld.stdout).not.toContain('config.ts');
    expect(withheld.stdout).toContain('deploy.md');
    expect(withheld.stderr).toBe('Warning: Left out src/config.ts: it holds a GitHub token at src/config.ts:2 (--secrets=withhold)\n');
    const failed = await refcatInProcess(['@src/config.ts', '--secrets=fail'], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe('Error: Left out src/config.ts: it holds a GitHub token at src/config.ts:2 (--secrets=fail)\n');
    const clean = await refcatInProcess(['@deploy.md#L1', '--secrets=fail'], { cwd: dir });
    expect(clean.code).toBe(0);
    const allowed = await refcatInProcess(['@src/config.ts', '-q', '--secrets=allow'], { cwd: dir });
    expect(allowed).toEqual({ code: 0, stdout: files['src/config.ts'], stderr: '' });
    expect(allowed.stdout).toContain(s.value);
  });

  it('a bad mode is a usage error', async () => {
    const r = await refcatInProcess(['@a', '--secrets=maybe'], { cwd: tmpDir({ a: 'x\n' }) });
    expect(r.code).toBe(2);
  });

  it('.secretlintignore (secretlint\'s format) keeps the files it names out of the scan', async () => {
    const dir = tmpDir({ ...files, '.secretlintignore': '# fixtures\nsrc/\n*.sh\n' });
    const r = await refcatInProcess(['@src/config.ts', '@deploy.sh', '@id_rsa', '-q'], { cwd: dir });
    expect(r.stdout).toContain(fake('github', 'src/config.ts').value);
    expect(r.stdout).toContain(fake('aws').value);
    expect(r.stdout).toContain('[REDACTED privatekey]');
  });
});

describe('a whole file read in pieces (over 64 KiB)', () => {
  it('is checked on its whole text: the secret on its second line is redacted, every other line printed', async () => {
    const s = fake('github', 'src/config.ts');
    const filler = 'x'.repeat(99) + '\n';
    const dir = tmpDir({ 'big.ts': `one\n${s.text}\n${filler.repeat(2000)}` });
    const r = await refcatInProcess(['@big.ts', '-q'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`one\nexport const token = "[REDACTED github]";\n${filler.repeat(2000)}`);
    expect(r.stderr).toBe('Warning: redacted a GitHub token at big.ts:2\n');
  });
});

describe('a file too large to scan whole (over 64 MiB)', () => {
  it('its selection is scanned as a text of its own and redacted', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir({ 'big.log': `one\n${s.text}\nthree\n${'filler line\n'.repeat(1000)}` });
    // Sparse: 65 MiB on disk costs nothing; the rest of the file (past the first 8 KiB) reads as NUL bytes.
    const fsMod = await import('node:fs');
    fsMod.truncateSync(`${dir}/big.log`, 65 * 1024 * 1024);
    const r = await refcatInProcess(['@big.log#L1-L3', '-q'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('one\nexport const token = "[REDACTED github]";\nthree\n');
    expect(r.stderr).toBe('Warning: redacted a GitHub token at big.log:2\n');
    const json = await refcatInProcess(['@big.log#L2-L3', '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout).refs[0].redacted).toEqual([{ line: 2, rule: 'github' }]);
    noValue(json.stdout + json.stderr);
  });
});

describe('citations of a redacted line', () => {
  it('--cite, pasted into a doc, reads back verbatim; verify refs --json holds no value', async () => {
    const dir = tmpDir(files);
    const cite = await refcatInProcess(['@src/config.ts#L1-L3', '--cite'], { cwd: dir });
    expect(cite.stdout).toContain('[REDACTED github]');
    await import('node:fs').then((fs) => fs.writeFileSync(`${dir}/doc.md`, `Config:\n\n${cite.stdout}`));
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--json'], { cwd: dir });
    expect(r.code, r.stdout).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.snippets.verbatim).toBe(1);
    noValue(r.stdout + r.stderr);
  });
});

describe('--outline', () => {
  it('an outline keeps the redacted line, never the value, with its warning and JSON "redacted"', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir({ 'src/config.ts': `export function f(): void {\n  return;\n}\n${s.text}\n` });
    const r = await refcatInProcess(['@src/config.ts', '--outline'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('4 | export const token = "[REDACTED github]";');
    expect(r.stderr).toBe('Warning: redacted a GitHub token at src/config.ts:4\n');
    noValue(r.stdout + r.stderr);
    const json = JSON.parse((await refcatInProcess(['@src/config.ts', '--outline', '--json'], { cwd: dir })).stdout);
    expect(json.refs[0].redacted).toEqual([{ line: 4, rule: 'github' }]);
  });

  it('a declaration whose name is a secret: its marker reads its lines by range, never by the name', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir({ 'src/config.ts': `export class Keys {\n  ${s.value}(): number {\n    return 1;\n  }\n}\nexport function f(): void {\n  return;\n}\n` });
    for (const args of [[], ['--json'], ['-q']]) {
      const r = await refcatInProcess(['@src/config.ts', '--outline', ...args], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      noValue(r.stdout + r.stderr);
      expect(r.stdout).toContain('@src/config.ts#L3-L4');
      expect(r.stdout).toContain('@src/config.ts#f');
    }
  });
});

describe('symbol refs', () => {
  it('@file#name: the declaration\'s lines are redacted, with the warning', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir(files);
    const r = await refcatInProcess(['@src/config.ts#token', '-q'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('export const token = "[REDACTED github]";');
    expect(r.stderr).toBe('Warning: redacted a GitHub token at src/config.ts:2\n');
    noValue(r.stdout + r.stderr);
    expect(s.value.length).toBeGreaterThan(0);
  });
});

describe('--secrets=withhold: where the note is (docs/refs.md#secrets)', () => {
  it('markdown: nothing of the file in stdout, the note on stderr; --json: no ref, a secret_withheld warning', async () => {
    const dir = tmpDir(files);
    const md = await refcatInProcess(['@src/config.ts', '--secrets=withhold'], { cwd: dir });
    expect(md.code).toBe(0);
    expect(md.stdout).not.toContain('config.ts');
    expect(md.stderr).toMatch(/^Warning: Left out src\/config\.ts: .+ \(--secrets=withhold\)$/m);
    const json = await refcatInProcess(['@src/config.ts', '--secrets=withhold', '--json'], { cwd: dir });
    const doc = JSON.parse(json.stdout) as { refs: unknown[]; warnings: { code: string; ref: string; message: string }[] };
    expect(doc.refs).toEqual([]);
    expect(doc.warnings.map((w) => [w.code, w.ref])).toEqual([['secret_withheld', '@src/config.ts']]);
    noValue(json.stdout + md.stdout + md.stderr);
  });
});

describe('formats that print no content do not fail or withhold on a secret (docs/refs.md#secrets)', () => {
  it('--spec, --validate-only and --list-files exit 0 under --secrets=fail and withhold', async () => {
    const s = fake('github', 'src/config.ts');
    const dir = tmpDir(files);
    for (const mode of ['fail', 'withhold']) {
      for (const flags of [['--spec'], ['--validate-only'], ['--list-files'], ['--validate-only', '--format', 'json']]) {
        for (const ref of [`@${s.file}`, `@${s.file}#L1-L2`, `@${s.file}#/token/`]) {
          const r = await refcatInProcess([ref, `--secrets=${mode}`, ...flags], { cwd: dir });
          expect(r.code, `${mode} ${flags.join(' ')} ${ref}: ${r.stderr}`).toBe(0);
          noValue(r.stdout + r.stderr);
        }
      }
    }
    // The formats that print content still fail.
    expect((await refcatInProcess([`@${s.file}`, '--secrets=fail'], { cwd: dir })).code).toBe(1);
  });
});
