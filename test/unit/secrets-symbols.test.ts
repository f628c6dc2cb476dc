import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { symbolCompletions } from '../../src/core/editor/symbol-refs.js';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { fakeSecrets, pieces } from '../helpers/fake-secrets.js';

// docs/symbols.md#listing-refcat-symbols, docs/refs.md#secrets: a declaration named by a secret is
// listed by its lines, its name and path redacted, in every front end that lists names.

const FAKES = fakeSecrets();
const fake = (rule: string) => FAKES.find((s) => s.rule === rule)!;
const GITHUB = fake('github').value;
const NPM = fake('npm').value;
const noSecret = (out: string) => {
  for (const v of [GITHUB, NPM]) for (const piece of pieces(v.slice(4))) expect(out.includes(piece), `${piece} printed`).toBe(false);
};

const N_TS = [
  'export class Keys {', // 1
  `  ${GITHUB}(): number {`, // 2
  '    return 1;', // 3
  '  }', // 4
  '  plain(): void {}', // 5
  '}', // 6
  `export class ${NPM} {`, // 7
  '  inner(): void {}', // 8
  '}', // 9
  'export function ok(): void {}', // 10
  `export const token = "${GITHUB}";`, // 11
].join('\n') + '\n';
const K_PY = `def ${GITHUB}():\n    pass\n\ndef fine():\n    pass\n`;

const project = () => tmpDir({ 'src/n.ts': N_TS, 'src/k.py': K_PY });
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('refcat symbols: a declaration named by a secret', () => {
  it('text: listed by its lines; a member of a secret-named type too; the rest unchanged; one warning per secret', async () => {
    const dir = project();
    const r = await refcatInProcess(['symbols', 'src/n.ts', 'src/k.py'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noSecret(r.stdout + r.stderr);
    expect(r.stdout.split('\n').map((l) => l.trim().split(/\s+/)[0])).toEqual([
      '@src/n.ts#Keys',
      '@src/n.ts#L2-L4',
      '@src/n.ts#Keys.plain',
      '@src/n.ts#L7-L9',
      '@src/n.ts#L8',
      '@src/n.ts#ok',
      '@src/n.ts#token',
      '@src/k.py#L1-L2',
      '@src/k.py#fine',
      '',
    ]);
    expect(r.stderr).toBe(
      'Warning: redacted a GitHub token at src/n.ts:2\nWarning: redacted an npm access token at src/n.ts:7\nWarning: redacted a GitHub token at src/k.py:1\n',
    );
  });

  it('JSON: name and path redacted as extraction redacts them; the warning in "warnings"', async () => {
    const dir = project();
    const r = await refcatInProcess(['symbols', 'src/n.ts', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noSecret(r.stdout + r.stderr);
    const json = JSON.parse(r.stdout);
    const rows = json.files[0].symbols.map((s: { ref: string; path: string; name: string }) => [s.ref, s.path, s.name]);
    expect(rows).toEqual([
      ['@src/n.ts#Keys', 'Keys', 'Keys'],
      ['@src/n.ts#L2-L4', 'Keys.[REDACTED github]', '[REDACTED github]'],
      ['@src/n.ts#Keys.plain', 'Keys.plain', 'plain'],
      ['@src/n.ts#L7-L9', '[REDACTED npm]', '[REDACTED npm]'],
      ['@src/n.ts#L8', '[REDACTED npm].inner', 'inner'],
      ['@src/n.ts#ok', 'ok', 'ok'],
      ['@src/n.ts#token', 'token', 'token'],
    ]);
    expect(json.warnings.map((w: { code: string }) => w.code)).toEqual(['secret_redacted', 'secret_redacted']);
    expect(r.stderr).toBe('');
  });

  it('a symbol ref into a secret-named type lists it by its lines too', async () => {
    const dir = project();
    const r = await refcatInProcess(['symbols', '@src/n.ts#Keys'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noSecret(r.stdout + r.stderr);
    expect(r.stdout).toContain('  @src/n.ts#L2-L4');
  });

  it('every listed ref extracts what was listed', async () => {
    const dir = project();
    const json = JSON.parse((await refcatInProcess(['symbols', 'src/n.ts', '--json'], { cwd: dir })).stdout);
    for (const s of json.files[0].symbols) {
      const r = await refcatInProcess([s.ref, '-q'], { cwd: dir });
      expect(r.code, `${s.ref}: ${r.stderr}`).toBe(0);
      expect(r.stdout.split('\n').length - 1, s.ref).toBe(s.end_line - s.start_line + 1);
    }
  });

  it('every rule whose secret is a name: never listed', async () => {
    const names = FAKES.filter((s) => /^[A-Za-z_$][\w$]*$/.test(s.value));
    expect(names.length).toBeGreaterThan(3);
    const dir = tmpDir(Object.fromEntries(names.map((s, i) => [`src/f${i}.ts`, `export function ${s.value}(): void {}\nexport function ok(): void {}\n`])));
    for (const format of [[], ['--json']]) {
      const r = await refcatInProcess(['symbols', 'src/*.ts', ...format], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      for (const s of names) expect(r.stdout + r.stderr, s.rule).not.toContain(s.value);
      expect(r.stdout.match(/#L1\b/g)?.length, format.join('')).toBe(names.length);
    }
  });

  it('--secrets=allow lists the names as they are; withhold and fail list as redact does', async () => {
    const dir = project();
    const allowed = await refcatInProcess(['symbols', 'src/n.ts', '--secrets=allow'], { cwd: dir });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain(`@src/n.ts#Keys.${GITHUB}`);
    expect(allowed.stderr).toBe('');
    const redacted = await refcatInProcess(['symbols', 'src/n.ts'], { cwd: dir });
    for (const mode of ['withhold', 'fail']) {
      const r = await refcatInProcess(['symbols', 'src/n.ts', `--secrets=${mode}`], { cwd: dir });
      expect(r.code, mode).toBe(0);
      expect(r.stdout, mode).toBe(redacted.stdout);
    }
  });

  it('a file in .secretlintignore is listed as it is, as extraction prints it', async () => {
    const dir = tmpDir({ 'src/n.ts': N_TS, '.secretlintignore': 'src/n.ts\n' });
    const r = await refcatInProcess(['symbols', 'src/n.ts'], { cwd: dir });
    expect(r.stdout).toContain(`@src/n.ts#Keys.${GITHUB}`);
  });
});

describe('refcat symbols at a version', () => {
  it('the version holding the secret name is listed redacted, the checkout holding none as it is', async () => {
    const dir = tmpDir();
    const repo = GitRepo.init({}, dir);
    repo.commit('c1', { 'src/n.ts': N_TS });
    repo.commit('c2', { 'src/n.ts': N_TS.replace(GITHUB, 'renamed').replace(NPM, 'Renamed') });
    for (const args of [['.@HEAD~1:src/n.ts'], ['src/n.ts', '--at', 'HEAD~1']]) {
      const r = await refcatInProcess(['symbols', ...args, '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      noSecret(r.stdout);
      expect(JSON.parse(r.stdout).files[0].symbols[1].path, args.join(' ')).toBe('Keys.[REDACTED github]');
    }
    const now = await refcatInProcess(['symbols', 'src/n.ts'], { cwd: dir });
    expect(now.stdout).toContain('@src/n.ts#Keys.renamed');
    expect(now.stderr).toBe('');
  });
});

describe('the MCP symbols tool', () => {
  it('lists a secret-named declaration by its lines, text and JSON; only a server started with allow lists the name', async () => {
    const dir = project();
    const agent = { ctx: testCtx(dir), store: path.join(dir, '.store') };
    const text = await runTool(tool('symbols'), { refs: ['src/n.ts'] }, agent);
    expect(text.isError, text.text).toBe(false);
    noSecret(text.text);
    expect(text.text).toContain('  @src/n.ts#L2-L4');
    expect(text.text).toContain('Warning: redacted a GitHub token at src/n.ts:2');
    const json = await runTool(tool('symbols'), { refs: ['src/n.ts'], format: 'json' }, agent);
    noSecret(json.text);
    expect(JSON.parse(json.text).files[0].symbols[1]).toMatchObject({ ref: '@src/n.ts#L2-L4', path: 'Keys.[REDACTED github]', name: '[REDACTED github]' });
    const asked = await runTool(tool('symbols'), { refs: ['src/n.ts'], secrets: 'allow' }, agent);
    noSecret(asked.text);
    const allowed = await runTool(tool('symbols'), { refs: ['src/n.ts'] }, { ...agent, secrets: 'allow' as const });
    expect(allowed.text).toContain(`@src/n.ts#Keys.${GITHUB}`);
  });
});

describe('editor completion after #', () => {
  it('offers no secret-named declaration, nor a member of one', async () => {
    const root = project();
    const session = new EditorSession(testCtx(root));
    const line = 'See @src/n.ts#';
    const labels = (await symbolCompletions(line, line.length, path.join(root, 'doc.md'), 'markdown', session)).map((e) => e.label);
    expect(labels).toEqual(['Keys', 'Keys.plain', 'ok', 'token']);
    const py = 'See @src/k.py#';
    expect((await symbolCompletions(py, py.length, path.join(root, 'doc.md'), 'markdown', session)).map((e) => e.label)).toEqual(['fine']);
  });
});
