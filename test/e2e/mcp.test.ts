import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, refcat } from '../helpers/cli.js';
import { GitRepo } from '../helpers/git-repo.js';

// One server for the whole file: spawning is slow on a busy 2-core machine. Every error case
// is followed by later calls on the same server, so "still serving" is checked throughout.
let top: string;
let root: string;
let store: string;
let client: Client;
let stderr = '';

const env = () => ({ PATH: process.env.PATH ?? '', HOME: path.join(top, 'home'), SDQCTL_HOME: path.join(top, 'home', '.sdqctl'), REFCAT_STORE: store, NO_COLOR: '1' });

beforeAll(async () => {
  top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-mcp-')));
  root = path.join(top, 'root');
  store = path.join(top, 'store');
  fs.mkdirSync(path.join(top, 'home'), { recursive: true });
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(top, 'secret.txt'), 'top secret\n');
  fs.writeFileSync(path.join(root, 'src', 'app.py'), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  fs.writeFileSync(path.join(root, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `row ${i + 1} ${'x'.repeat(i % 50)}`).join('\n') + '\n');
  fs.writeFileSync(path.join(root, 'aaa.txt'), 'a'.repeat(40) + 'b\n');
  fs.mkdirSync(path.join(root, 'long'));
  fs.writeFileSync(path.join(root, 'long', `${'a'.repeat(250)}.txt`), 'long name\n');
  fs.writeFileSync(path.join(root, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255, 0]));
  fs.writeFileSync(path.join(root, 'answer.md'), 'Here:\n<ref id="code">\nprint(1)\n</ref>\n');
  fs.writeFileSync(path.join(root, 'flow.conv'), 'MODEL gpt-4\nREFCAT @src/app.py#L1-L3\nPROMPT go\n');
  fs.writeFileSync(path.join(root, 'bad.conv'), 'MODEL gpt-4\nREFCAT @src/missing.py#L1\nPROMPT go\n');
  fs.writeFileSync(path.join(root, 'doc.md'), 'See @src/app.py#L2 and @src/gone.py.\n');
  fs.writeFileSync(path.join(root, 'good.md'), 'See @src/app.py#L2-L4.\n');
  fs.symlinkSync(path.join(top, 'secret.txt'), path.join(root, 'leak.txt'));
  fs.writeFileSync(path.join(root, 'exists.txt'), 'keep me\n');
  // Outside the root: a workflow that INCLUDEs, or a symlink, could lead a tool to it.
  fs.writeFileSync(path.join(top, 'outside.conv'), 'MODEL gpt-4\nSECRETDIRECTIVE hidden words\nREFCAT @src/hidden.py\n');
  fs.mkdirSync(path.join(root, 'escape'));
  fs.writeFileSync(path.join(root, 'escape', 'inc.conv'), 'MODEL gpt-4\nINCLUDE ../../outside.conv\nPROMPT go\n');
  fs.symlinkSync(path.join(top, 'outside.conv'), path.join(root, 'escape', 'link.conv'));
  // An alias target outside the root is readable, as the reference says.
  fs.mkdirSync(path.join(top, 'lib'));
  fs.writeFileSync(path.join(top, 'lib', 'util.ts'), 'export const one = 1;\nexport const two = 2;\n');
  fs.mkdirSync(path.join(top, 'home', '.sdqctl'), { recursive: true });
  fs.writeFileSync(path.join(top, 'home', '.sdqctl', 'aliases.yaml'), `aliases:\n  lib: ${path.join(top, 'lib')}\n`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: root, env: env(), stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: 'refcat-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  fs.rmSync(top, { recursive: true, force: true });
});

async function callRaw(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
}

/** A tool call; after every error result, the same server must still answer a good call. */
async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await callRaw(name, args);
  if (r.isError) {
    const after = await callRaw('extract', { refs: ['@src/app.py#L7'] });
    expect(after, `serving after ${name} ${JSON.stringify(args).slice(0, 80)}`).toMatchObject({ isError: false });
    expect(after.text).toContain('7 | line 7');
  }
  return r;
}

describe('refcat mcp', () => {
  it('lists the nine tools with descriptions, schemas and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['aliases', 'extract', 'fd_close', 'fd_list', 'fd_read', 'ref_export', 'ref_list', 'symbols', 'validate', 'verify_refs'].sort(),
    );
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      for (const p of Object.values((t.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) expect(p.description).toBeTruthy();
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // Read-only where the tool changes nothing; fd_read stores text, fd_close and ref_export destroy.
    const hints = Object.fromEntries(tools.map((t) => [t.name, [t.annotations?.readOnlyHint, t.annotations?.destructiveHint ?? null]]));
    expect(hints).toEqual({
      extract: [true, null],
      validate: [true, null],
      verify_refs: [true, null],
      fd_read: [false, false],
      fd_list: [true, null],
      fd_close: [false, true],
      ref_list: [true, null],
      ref_export: [false, true],
      aliases: [true, null],
      symbols: [true, null],
    });
    for (const t of tools) expect(t.annotations?.openWorldHint, t.name).toBe(false);
    expect(byName.extract!.inputSchema.required).toEqual(['refs']);
    expect(byName.ref_export!.inputSchema.required).toEqual(['id', 'to']);
    expect(byName.fd_close!.inputSchema.required).toEqual(['fd']);
    expect(byName.validate!.inputSchema.required).toEqual(['paths']);
    expect(Object.keys(byName.fd_read!.inputSchema.properties ?? {}).sort()).toEqual(['fd', 'lines', 'page', 'page_size', 'path', 'text']);
  });

  it('extract answers the CLI markdown and its token total', async () => {
    const r = await call('extract', { refs: ['@src/app.py#L2-L3'] });
    expect(r.isError).toBe(false);
    const cli = refcat(['@src/app.py#L2-L3', '--tokens'], { cwd: root });
    expect(r.text).toBe(cli.stdout + '\n' + cli.stderr);
    expect(r.text).toMatch(/^refcat: 1 ref, \d+ tokens \(o200k_base\)$/m);
  });

  it('extract as JSON is the CLI --json report, then the tokens of that JSON', async () => {
    const r = await call('extract', { refs: ['@src/app.py#L1-L2'], format: 'json' });
    expect(r.isError).toBe(false);
    const cli = refcat(['@src/app.py#L1-L2', '--json'], { cwd: root }).stdout;
    const n = new Tiktoken(o200k).encode(cli, [], []).length;
    expect(r.text).toBe(cli.slice(0, -3) + `,\n  "tokens": {\n    "encoding": "o200k_base",\n    "json": ${n}\n  }\n}\n`);
    expect(JSON.parse(r.text)).toEqual({ ...JSON.parse(cli), tokens: { encoding: 'o200k_base', json: n } });
  });

  it('extract keeps max_tokens', async () => {
    const r = await call('extract', { refs: ['@big.txt#L1-L400', '@src/app.py'], max_tokens: 300 });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('over the budget of 300');
    const markdown = r.text.slice(0, r.text.indexOf('\nWarning: left out'));
    expect(new Tiktoken(o200k).encode(markdown, [], []).length).toBeLessThanOrEqual(300);
    expect(r.text).toContain('Warning: left out (token budget): @src/app.py');
    // Too small for one line of the first ref: an error naming the smallest budget that fits.
    const small = await call('extract', { refs: ['@big.txt#L1-L400', '@src/app.py'], max_tokens: 5 });
    expect(small.isError).toBe(true);
    const need = Number(/^Error: max_tokens 5 is too small: the first ref needs at least (\d+) tokens for one line \(@big\.txt#L1-L400\)\n$/.exec(small.text)?.[1]);
    expect(need).toBeGreaterThan(5);
    const fits = await call('extract', { refs: ['@big.txt#L1-L400', '@src/app.py'], max_tokens: need });
    expect(fits.isError).toBe(false);
    expect(fits.text).toContain('1 | row 1 \n… cut: 399 more lines');
    expect(new Tiktoken(o200k).encode(fits.text.slice(0, fits.text.indexOf('\nWarning: left out')), [], []).length).toBeLessThanOrEqual(need);
    const json = await call('extract', { refs: ['@src/app.py'], max_tokens: 300, format: 'json' });
    expect(json).toEqual({ text: 'Error: max_tokens budgets the markdown output: it does not combine with format json\n', isError: true });
  });

  it('extract of a missing file, a binary file or a bad ref is an error, and the server goes on', async () => {
    const missing = await call('extract', { refs: ['@src/nope.py'] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain(refcat(['@src/nope.py'], { cwd: root }).stderr.split('\n')[0]);
    const binary = await call('extract', { refs: ['@bin.dat'] });
    expect(binary.isError).toBe(true);
    expect(binary.text).toMatch(/^Error: /m);
    const bad = await call('extract', { refs: ['@src/app.py#L0'] });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Cannot parse ref/);
    // A lone `#L` is an unfinished line range (docs/symbols.md#the-grammar); `#L~1` is a name.
    expect((await call('extract', { refs: ['@src/app.py#L'] })).text).toMatch(/Cannot parse ref/);
    const name = await call('extract', { refs: ['@src/app.py#L~1'] });
    expect(name.isError).toBe(true);
    expect(name.text).toContain("Error: Symbol 'L~1' not found in @src/app.py#L~1");
    expect((await call('extract', { refs: ['@src/app.py#L1'] })).isError).toBe(false);
  });

  it('bad arguments are an error, not a crash', async () => {
    const r = await call('extract', { refs: 'not an array' });
    expect(r.isError).toBe(true);
    expect((await call('fd_read', {})).isError).toBe(true);
    expect((await call('fd_read', { text: 'x', path: 'a' })).text).toContain('exactly one of text, path and fd');
    expect((await call('aliases', {})).isError).toBe(false);
  });

  it('refuses .., absolute paths outside and symlinks leading out', async () => {
    for (const ref of ['@../secret.txt', `@${path.join(top, 'secret.txt')}`, '@leak.txt', '@src/../../secret.txt']) {
      const r = await call('extract', { refs: [ref] });
      expect(r.isError, ref).toBe(true);
      expect(r.text).toMatch(/^Error: Refused: .* is outside the root/);
      expect(r.text).not.toContain('top secret');
    }
    for (const p of ['../secret.txt', path.join(top, 'secret.txt'), 'leak.txt']) {
      const r = await call('fd_read', { path: p });
      expect(r.isError, p).toBe(true);
      expect(r.text).not.toContain('top secret');
      expect((await call('ref_list', { path: p })).isError).toBe(true);
    }
    expect((await call('validate', { paths: ['../'] })).isError).toBe(true);
    expect((await call('verify_refs', { paths: [top] })).isError).toBe(true);
    // A glob that reaches the symlink refuses the whole call.
    const glob = await call('extract', { refs: ['@*.txt#L1'] });
    expect(glob.isError).toBe(true);
    expect(glob.text).toBe(`Error: Refused: @*.txt#L1 is outside the root ${root} (and every alias target)\n`);
    expect(glob.text).not.toContain('top secret');
  });

  it('fd_read judges every file a glob or ref in path reaches, before it reads any', async () => {
    fs.mkdirSync(path.join(top, 'private'));
    fs.writeFileSync(path.join(top, 'private', 'secret.txt'), 'TOPSECRET line1\n');
    fs.symlinkSync(path.join(top, 'private', 'secret.txt'), path.join(root, 'link.txt'));
    fs.symlinkSync(path.join(top, 'private'), path.join(root, 'linkdir'));
    try {
      const forms: Record<string, unknown>[] = [
        { path: 'link*' },
        { path: '**/secret.txt' },
        { path: 'linkd?r/secret.txt' },
        { path: 'l[i]nk.txt', lines: '1' },
        { path: 'l*.txt#L1' },
        { path: 'link.txt#L1' },
        { path: 'linkdir/../linkdir/secret.txt' },
      ];
      for (const args of forms) {
        const r = await call('fd_read', args);
        expect(r, JSON.stringify(args)).toEqual({ text: `Error: Refused: ${args.path} is outside the root ${root} (and every alias target)\n`, isError: true });
      }
      // A glob or ref that stays inside the root is read as before.
      expect(await call('fd_read', { path: 'sr?/*.py', lines: '2-3' })).toMatchObject({ text: expect.stringContaining('line 2\nline 3\n'), isError: false });
      expect(await call('fd_read', { path: 'src/a*.py#L4' })).toEqual({ text: 'line 4\n', isError: false });
    } finally {
      for (const link of ['link.txt', 'linkdir']) fs.rmSync(path.join(root, link));
    }
  });

  it('a glob that walks to a symlink leading out is refused by the ref as written, whatever lies outside', async () => {
    fs.mkdirSync(path.join(top, 'keys'));
    fs.symlinkSync(path.join(top, 'keys'), path.join(root, 'linkdir'));
    try {
      const refused = { text: `Error: Refused: @l?nkdir/* is outside the root ${root} (and every alias target)\n`, isError: true };
      expect(await call('extract', { refs: ['@l?nkdir/*'] })).toEqual(refused);
      fs.writeFileSync(path.join(top, 'keys', 'another_private_name.key'), 'k\n');
      expect(await call('extract', { refs: ['@l?nkdir/*'] })).toEqual(refused);
      expect((await call('fd_read', { path: 'l?nkdir/*.key' })).text).toBe(`Error: Refused: l?nkdir/*.key is outside the root ${root} (and every alias target)\n`);
    } finally {
      fs.rmSync(path.join(root, 'linkdir'));
    }
  });

  it('workflows cannot lead a tool out of the root: an INCLUDE outside is not read, a symlinked .conv refuses validate, verify_refs skips it with a warning', async () => {
    const validated = await call('validate', { paths: ['escape/inc.conv'] });
    expect(validated.isError).toBe(true);
    expect(JSON.parse(validated.text).files[0].errors).toEqual([
      expect.objectContaining({ code: 'include_unreadable', message: `Cannot read INCLUDE file ../../outside.conv: refused: outside the root ${root} (and every alias target)` }),
    ]);
    // verify refs checks the refs a workflow holds (an unreadable INCLUDE is validate's finding):
    // the outside file's ref is not among them.
    const verified = await call('verify_refs', { paths: ['escape/inc.conv'] });
    expect(verified.isError).toBe(false);
    expect(JSON.parse(verified.text)).toMatchObject({ passed: true, refs_found: 0, errors: [] });
    // Nothing of the outside file reaches either answer: not its directives, not its refs.
    for (const r of [validated, verified]) expect(r.text).not.toMatch(/SECRETDIRECTIVE|hidden/);
    const r = await call('validate', { paths: ['escape'] });
    expect(r).toEqual({ text: `Error: Refused: ${path.join(root, 'escape', 'link.conv')} is outside the root ${root} (and every alias target)\n`, isError: true });
    // verify_refs skips a symlink leading out, with a warning, and checks the rest, as the CLI
    // skips what it cannot scan; `exclude` leaves it out.
    for (const args of [{ paths: ['escape'] }, {}]) {
      const v = await call('verify_refs', args);
      const doc = JSON.parse(v.text);
      expect(doc.warnings, JSON.stringify(args)).toContainEqual({
        code: 'outside_root',
        message: `Skipped: a symlink leading outside the root ${root} (not read)`,
        file: 'escape/link.conv',
        line: null,
        ref: null,
        details: ['Leave it out with exclude, or point it inside the root'],
      });
      expect(v.text).not.toMatch(/SECRETDIRECTIVE|hidden/);
    }
    const excluded = JSON.parse((await call('verify_refs', { exclude: ['escape/', 'leak.txt'] })).text);
    expect(excluded.warnings.filter((w: { code: string }) => w.code === 'outside_root')).toEqual([]);
  });

  it('refuses an argument a tool does not have, and logs a failed call by what failed', async () => {
    for (const [tool, args] of [
      ['fd_list', { all: true }],
      ['aliases', { json: true }],
      ['extract', { refs: ['@src/app.py#L1'], ref: 'x' }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(r.text, tool).toMatch(/Unrecognized key/);
    }
    await call('validate', { paths: ['bad.conv'] });
    expect(stderr).toContain('refcat mcp: validate: 1 of 1 workflow invalid\n');
    expect(stderr).not.toContain('refcat mcp: validate: {');
  });

  it('fd_read names a file it read by its path, and a clamped range by the lines argument', async () => {
    const r = await call('fd_read', { path: 'src/app.py', lines: '29-40' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^<fd_content path="src\/app\.py" lines="29-30"/);
    expect(r.text).toContain('Line range exceeds content bounds');
    expect(r.text).toContain('lines "29-40"');
    expect(r.text).not.toContain('--lines');
  });

  it('alias targets are readable; .. through an alias is not', async () => {
    const aliases = await call('aliases', {});
    expect(aliases.isError).toBe(false);
    expect(JSON.parse(aliases.text).aliases).toEqual([expect.objectContaining({ name: 'lib', target: path.join(top, 'lib'), shadowed: false })]);
    const r = await call('extract', { refs: ['lib:util.ts#L2'] });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('2 | export const two = 2;');
    const out = await call('extract', { refs: ['lib:../secret.txt'] });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^Error: Refused: lib:\.\.\/secret\.txt is outside the root/);
    expect(out.text).not.toContain('top secret');
    expect((await call('fd_read', { path: path.join(top, 'lib', 'util.ts') })).text).toBe('export const one = 1;\nexport const two = 2;\n');
  });

  it('an alias file under the root opens nothing outside it, even one the agent wrote', async () => {
    const lock = '{"externals_dir": "..", "repos": [{"alias": "up", "name": "."}]}';
    const wrote = await call('ref_export', { text: `<ref id="lock">${lock}</ref>`, id: 'lock', to: 'workspace.lock.json' });
    expect(wrote.isError).toBe(false);
    try {
      // The alias is defined (aliases lists it) but reads through it stay inside the root.
      expect(JSON.parse((await call('aliases', {})).text).aliases).toContainEqual(expect.objectContaining({ name: 'up', target: top }));
      const r = await call('extract', { refs: ['up:secret.txt'] });
      expect(r).toEqual({ text: `Error: Refused: up:secret.txt is outside the root ${root} (and every alias target)\n`, isError: true });
      expect((await call('fd_read', { path: path.join(top, 'secret.txt') })).isError).toBe(true);
      // The user's own alias file (outside the root) still counts.
      expect((await call('extract', { refs: ['lib:util.ts#L1'] })).isError).toBe(false);
    } finally {
      fs.rmSync(path.join(root, 'workspace.lock.json'));
    }
  });

  it('verify_refs with drift says which line refs moved, as the CLI does, and rewrites nothing', async () => {
    const code = Array.from({ length: 12 }, (_, i) => `const v${i} = ${i};`).join('\n') + '\n';
    const repo = GitRepo.init({ 'lib/x.js': code, 'notes.md': 'See @lib/x.js#L3-L5.\n' }, path.join(root, 'history'));
    repo.commit('two lines on top', { 'lib/x.js': '// a\n// b\n' + code });
    const r = await call('verify_refs', { paths: ['history/notes.md'], drift: true });
    expect(r.isError).toBe(false);
    const drift = JSON.parse(r.text).drift;
    expect(drift.refs.map((d: { status: string; new_ref: string }) => [d.status, d.new_ref])).toEqual([['moved', '@lib/x.js#L5-L7']]);
    expect(JSON.parse(r.text)).toEqual(JSON.parse(refcat(['verify', 'refs', 'history/notes.md', '--drift', '--json'], { cwd: root }).stdout));
    expect(fs.readFileSync(path.join(root, 'history', 'notes.md'), 'utf8')).toBe('See @lib/x.js#L3-L5.\n');
    expect(JSON.parse((await call('verify_refs', { paths: ['history/notes.md'] })).text).drift).toBeUndefined();
  });

  it('a catastrophic pattern is stopped by the budget and answered as an error', async () => {
    // (a+)+$ on 40 a's and a b backtracks about 2^40 steps: only the CPU-time budget ends it.
    const r = await call('extract', { refs: ['@aaa.txt#/(a+)+$/'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error: Pattern \/\(a\+\)\+\$\/ timed out after 1\.5 s of CPU time in @aaa\.txt/m);
    expect((await call('extract', { refs: ['@aaa.txt'] })).isError).toBe(false);
  });

  it('a glob that backtracks in a regex engine is answered at once, and the server keeps serving', async () => {
    // picomatch's regex for these stars backtracks exponentially on the 250 a's of the file name.
    const r = await call('extract', { refs: ['@long/*a*a*a*a*a*a*a*ab*.txt'] });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('Glob matched no files: @long/*a*a*a*a*a*a*a*ab*.txt');
    expect((await call('extract', { refs: ['@long/*a*a*a*a*a*a*.txt'] })).text).toContain('long name');
  });

  it('pages a 5,000-line file by following each answer, as an agent would; the pages rejoin exactly', async () => {
    const text = fs.readFileSync(path.join(root, 'big.txt'), 'utf8');
    // A file is read in place: the answer names the fd_read call for page 2, with the same path.
    const first = await call('fd_read', { path: 'big.txt', page_size: 3000 });
    expect(first.isError).toBe(false);
    const pages = Number(/^<fd_result [^>]*pages="(\d+)"/.exec(first.text)?.[1]);
    expect(pages).toBeGreaterThan(10);
    const next = /Use `fd_read (\{.*\})` to read more pages\./.exec(first.text);
    expect(next, first.text.slice(0, 300)).not.toBeNull();
    const args = JSON.parse(next![1]!);
    expect(args).toEqual({ path: 'big.txt', page: 2, page_size: 3000 });
    let joined = /<preview>\n([\s\S]*)\n {2}<\/preview>/.exec(first.text)![1]!;
    for (let p = 2; p <= pages; p++) {
      const page = await call('fd_read', { ...args, page: p });
      expect(page.isError, `page ${p}`).toBe(false);
      joined += /^<fd_content [^>]*>\n([\s\S]*)\n<\/fd_content>\n$/.exec(page.text)![1];
    }
    expect(joined).toBe(text);
  });

  it('pages a 5,000-line text stored as an fd to the end; the pages rejoin exactly', async () => {
    const text = fs.readFileSync(path.join(root, 'big.txt'), 'utf8');
    const stored = await call('fd_read', { text });
    const m = /<fd_result fd="(fd:\d+)" pages="(\d+)"/.exec(stored.text);
    expect(m).not.toBeNull();
    expect(stored.text).toContain(`Use \`fd_read {"fd":"${m![1]}","page":2}\` to read more pages.`);
    const [, fd, pages] = m!;
    let joined = '';
    for (let p = 1; p <= Number(pages); p++) {
      const page = await call('fd_read', { fd, page: p });
      expect(page.isError).toBe(false);
      const body = /^<fd_content [^>]*>\n([\s\S]*)\n<\/fd_content>\n$/.exec(page.text);
      expect(body, `page ${p}`).not.toBeNull();
      joined += body![1];
    }
    expect(joined).toBe(text);
    const past = await call('fd_read', { fd, page: Number(pages) + 1 });
    expect(past.isError).toBe(true);
    expect(past.text).toContain(`Invalid page number. Valid range: 1-${pages}`);
    // The store is the CLI's: the CLI reads the agent's fd.
    const cli = refcat(['fd', 'read', fd!, '--page', '1'], { cwd: root, env: { REFCAT_STORE: store } });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const list = await call('fd_list', {});
    expect(list.text).toContain(fd);
    expect((await call('fd_close', { fd: fd! })).text).toContain('success="true"');
    expect((await call('fd_close', { fd: fd! })).isError).toBe(true);
    expect((await call('fd_close', { fd: '../../etc' })).isError).toBe(true);
  });

  it('validate and verify_refs answer the CLI JSON', async () => {
    const good = await call('validate', { paths: ['flow.conv'] });
    expect(good.isError).toBe(false);
    expect(JSON.parse(good.text)).toEqual(JSON.parse(refcat(['validate', 'flow.conv', '--json'], { cwd: root }).stdout));
    const bad = await call('validate', { paths: ['bad.conv'] });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(bad.text).valid).toBe(false);
    expect((await call('validate', { paths: ['bad.conv'], allow_missing: true })).isError).toBe(false);
    const none = await call('validate', { paths: ['nothing-here'] });
    expect(none.isError).toBe(true);
    const passing = await call('verify_refs', { paths: ['good.md'] });
    expect(passing.isError).toBe(false);
    expect(JSON.parse(passing.text)).toMatchObject({ passed: true, refs_found: 1, broken: 0 });
    const verify = await call('verify_refs', { paths: ['doc.md'] });
    expect(verify.isError).toBe(true);
    expect(JSON.parse(verify.text)).toEqual(JSON.parse(refcat(['verify', 'refs', 'doc.md', '--json'], { cwd: root }).stdout));
  });

  it('ref_list and ref_export, with the file safety of the CLI', async () => {
    const list = await call('ref_list', { path: 'answer.md' });
    expect(list.isError).toBe(false);
    expect(list.text).toContain('<ref id="code"');
    const fromText = await call('ref_list', { text: '<ref id="x">hi</ref>' });
    expect(fromText.text).toContain('<ref_list count="1">');
    const out = await call('ref_export', { path: 'answer.md', id: 'code', to: 'out/code.py' });
    expect(out.isError).toBe(false);
    expect(fs.readFileSync(path.join(root, 'out', 'code.py'), 'utf8')).toBe('print(1)\n');
    const exists = await call('ref_export', { text: '<ref id="a">new</ref>', id: 'a', to: 'exists.txt' });
    expect(exists.isError).toBe(true);
    // The tool's own argument, not the CLI's flag.
    expect(exists.text).toContain('exists (pass force: true to overwrite)');
    expect(exists.text).not.toContain('--force');
    expect(fs.readFileSync(path.join(root, 'exists.txt'), 'utf8')).toBe('keep me\n');
    expect((await call('ref_export', { text: '<ref id="a">new</ref>', id: 'a', to: 'exists.txt', force: true })).isError).toBe(false);
    expect(fs.readFileSync(path.join(root, 'exists.txt'), 'utf8')).toBe('new\n');
    for (const to of ['../escape.txt', path.join(top, 'escape.txt'), 'leak.txt']) {
      const r = await call('ref_export', { text: '<ref id="a">x</ref>', id: 'a', to, force: true });
      expect(r.isError, to).toBe(true);
      // No CLI way round (--allow-outside) is offered to the agent.
      expect(r.text, to).toMatch(/^Error: Refused: .* (is|leads) outside .* \(ref_export writes only under the root\)\n$/);
    }
    expect(fs.existsSync(path.join(top, 'escape.txt'))).toBe(false);
    // git runs what .git/config and .git/hooks name: no write there, even with force.
    fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
    try {
      for (const to of ['.git/config', '.git/hooks/pre-commit', 'src/../.git/hooks/post-checkout']) {
        const r = await call('ref_export', { text: '<ref id="a">[core]\n\tfsmonitor = touch pwned</ref>', id: 'a', to, force: true });
        expect(r, to).toEqual({ text: `Error: Refused: ${to} is inside a .git folder (git runs what its config and hooks name)\n`, isError: true });
      }
      expect(fs.readdirSync(path.join(root, '.git', 'hooks'))).toEqual([]);
      expect(fs.existsSync(path.join(root, '.git', 'config'))).toBe(false);
    } finally {
      fs.rmSync(path.join(root, '.git'), { recursive: true, force: true });
    }
    expect(fs.readFileSync(path.join(top, 'secret.txt'), 'utf8')).toBe('top secret\n');
    expect((await call('ref_export', { text: 'none', id: 'missing', to: 'x.txt' })).isError).toBe(true);
  });

  it('logs go to stderr only', async () => {
    expect(stderr).toContain('refcat mcp: serving 10 tools');
  });
});
