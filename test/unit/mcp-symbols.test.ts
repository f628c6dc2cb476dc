import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_CAP_CHARS } from '../../src/core/agents/answer-caps.js';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { type DeclarationWorker, parseOffThread, stopParsingOffThread } from '../../src/core/symbols/declaration-worker.js';
import { loadedGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Symbol refs through the MCP tools, in this process, as `refcat mcp` runs them: parsed in the
// worker (as built by `npm run build`), here with a threshold so low that every parse replaces
// it, so each answer below also shows that a replaced worker answers right. Each answer is
// compared with the CLI's for the same refs (which parses through the same worker here).
const APP_TS = [
  'export class Store {', // 1
  '  /** Saves. */', // 2
  '  save(): void {}', // 3
  '  load(): void {}', // 4
  '}', // 5
  'export function parse(a: string): number {', // 6
  '  return 1;', // 7
  '}', // 8
].join('\n') + '\n';
const UTIL_PY = 'class Helper:\n    def run(self):\n        pass\n';

let worker: DeclarationWorker;
beforeAll(() => {
  worker = parseOffThread({ maxHeapBytes: 1024, tierUp: false })!;
  if (!worker) throw new Error('dist/core/symbols/parse-worker.js is missing: run npm run build first');
});
afterAll(() => stopParsingOffThread(worker));

function project(): { dir: string; agent: { ctx: ReturnType<typeof testCtx>; store: string } } {
  const dir = tmpDir({
    'src/app.ts': APP_TS,
    'src/util.py': UTIL_PY,
    'src/notes.md': '# Notes\n',
    'docs/guide.md': 'See @src/app.ts#Store.save and @src/app.ts#Store.sav.\n',
    'flow.conv': 'MODEL gpt-4\nREFCAT @src/util.py#Helper.run\nPROMPT go\n',
  });
  return { dir, agent: { ctx: testCtx(dir), store: path.join(dir, '.store') } };
}

// One table of tools: the symbols tool is found in TOOLS as the others are.
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('symbol refs in refcat mcp', () => {
  it('extract takes symbol refs: the same text as the CLI', async () => {
    const { dir, agent } = project();
    // Tables are fetched ahead of the extraction: it does not wait on the worker (a glob's files, read as found, do).
    const blocking = worker.blocking;
    expect((await runTool(tool('extract'), { refs: ['@src/app.ts#parse', '@src/util.py#Helper'] }, agent)).isError).toBe(false);
    expect(worker.blocking).toBe(blocking);
    for (const refs of [['@src/app.ts#Store.save'], ['@src/app.ts#parse', '@src/util.py#Helper.run:-1..+0'], ['@src/*.ts#Store.load']]) {
      const mcp = await runTool(tool('extract'), { refs }, agent);
      const cli = await refcatInProcess([...refs, '--tokens'], { cwd: dir });
      expect(mcp.isError, refs.join(' ')).toBe(false);
      expect(mcp.text).toBe(cli.stdout + '\n' + cli.stderr);
    }
    const one = await runTool(tool('extract'), { refs: ['@src/app.ts#Store.save'] }, agent);
    expect(one.text).toContain('2 |   /** Saves. */\n3 |   save(): void {}\n');
    const json = JSON.parse((await runTool(tool('extract'), { refs: ['@src/app.ts#Store.save'], format: 'json' }, agent)).text);
    expect(json.refs[0].symbol).toEqual({ path: 'Store.save', kind: 'method' });
  });

  it('a missing symbol is an error with the did-you-mean, and the server goes on', async () => {
    const { agent } = project();
    const r = await runTool(tool('extract'), { refs: ['@src/app.ts#Store.sav'] }, agent);
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Error: Symbol 'Store.sav' not found in @src/app.ts#Store.sav (did you mean Store.save");
    expect((await runTool(tool('extract'), { refs: ['@src/app.ts#Store.load'] }, agent)).isError).toBe(false);
  });

  it('symbols answers what refcat symbols prints, text and JSON', async () => {
    const { dir, agent } = project();
    for (const refs of [['src/app.ts'], ['src/**'], ['@src/app.ts#Store'], ['src/app.ts', 'src/missing.ts']]) {
      const text = await runTool(tool('symbols'), { refs }, agent);
      const cli = await refcatInProcess(['symbols', ...refs], { cwd: dir });
      expect(text.text, refs.join(' ')).toBe(cli.stdout + cli.stderr);
      expect(text.isError).toBe(cli.code !== 0);
      const json = await runTool(tool('symbols'), { refs, format: 'json' }, agent);
      const cliJson = await refcatInProcess(['symbols', '--json', ...refs], { cwd: dir });
      expect(json.text).toBe(cliJson.stdout);
      expect(json.isError).toBe(cliJson.code !== 0);
    }
    const listed = (await runTool(tool('symbols'), { refs: ['src/app.ts'] }, agent)).text;
    expect(listed).toContain('  @src/app.ts#Store.save  L2-L3  method\n');
  });

  it('verify_refs and validate read symbol refs in docs and workflows', async () => {
    const { agent } = project();
    const v = JSON.parse((await runTool(tool('verify_refs'), { paths: ['docs'] }, agent)).text);
    expect(v.broken).toBe(1);
    expect(JSON.stringify(v)).toContain("Symbol 'Store.sav' not found");
    const w = await runTool(tool('validate'), { paths: ['flow.conv'] }, agent);
    expect(w.isError).toBe(false);
    expect(JSON.parse(w.text).valid).toBe(true);
  });

  it('symbols answers a bad ref with the CLI\'s error, and a file without declarations with nothing', async () => {
    const { agent } = project();
    expect(await runTool(tool('symbols'), { refs: ['@src/app.ts#L1-L3'] }, agent)).toMatchObject({
      isError: true,
      text: 'Error: refcat symbols lists files, globs and symbol refs, not line ranges or patterns: @src/app.ts#L1-L3\n',
    });
    const none = await runTool(tool('symbols'), { refs: ['src/notes.md'] }, agent);
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/^Error: No parser for '\.md' files in src\/notes\.md; symbol refs work in: \.ts, /);
    expect(await runTool(tool('symbols'), { refs: ['src/*.md'] }, agent)).toEqual({ text: 'No declarations found.\n', isError: false, log: undefined });
  });

  it('symbols stays inside the root and the alias targets', async () => {
    const { dir, agent } = project();
    const outside = tmpDir({ 'secret.ts': 'export const secret = 1;\n' });
    fs.symlinkSync(outside, path.join(dir, 'src', 'link'));
    for (const refs of [['../x.ts'], [path.join(outside, 'secret.ts')], ['src/link/secret.ts'], ['src/**/*.ts']]) {
      const r = await runTool(tool('symbols'), { refs }, agent);
      expect(r.isError, refs[0]).toBe(true);
      expect(r.text, refs[0]).toMatch(/^Error: Refused: .* is outside the root/);
      expect(r.text).not.toContain('secret = 1');
    }
  });

  it('a listing past the cap is stored whole as an fd, the answer saying how to read on', async () => {
    const n = Math.ceil(ANSWER_CAP_CHARS / 30) + 100;
    const dir = tmpDir({ 'big.ts': Array.from({ length: n }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n' });
    const r = await runTool(tool('symbols'), { refs: ['big.ts'] }, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(r.isError).toBe(false);
    expect(r.text.length).toBeLessThan(ANSWER_CAP_CHARS + 1000);
    expect(r.text).toMatch(/… cut: this answer stops at the cap of [\d,]+ characters.* stored as fd:1: fd_read \{"fd":"fd:1","lines":"\d+-"\}/s);
    const page = await runTool(TOOLS.find((t) => t.name === 'fd_read')!, { fd: 'fd:1', lines: `${n}-${n}` }, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    expect(page.text).toContain(`@big.ts#value${n - 1}`);
  });

  it('parsed in the worker, replaced as its heap passed the threshold: no grammar in this thread', () => {
    expect(worker.started).toBeGreaterThan(1);
    expect(worker.replaced).toBeGreaterThan(0);
    for (const l of SYMBOL_LANGUAGES) expect(loadedGrammar(l), l.id).toBeNull();
  });
});

describe('the table of MCP tools', () => {
  it('holds every tool once, symbols among them, in the order the server lists them', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('symbols');
    expect(names.at(-1)).toBe('symbols');
  });
});
