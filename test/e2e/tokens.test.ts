import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, refcat } from '../helpers/cli.js';

// Every count is checked against js-tiktoken on the text the bin actually printed.
const ref = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
const count = (text: string, enc: keyof typeof ref = 'o200k_base') => ref[enc].encode(text, [], []).length;

const src = path.join(REPO, 'src');
const refs = ['@core/extract/read-extraction.ts#L1-L120', '@cli/program.ts#L1-L60', '@core/output/render-extraction.ts', '@shared/errors.ts#L1-L30'];
const run = (args: string[]) => refcat(args, { cwd: src });

describe('--tokens', () => {
  for (const enc of ['o200k_base', 'cl100k_base'] as const) {
    it(`${enc}: the stderr summary counts the printed markdown`, () => {
      const r = run([...refs, '--tokens', '--encoding', enc]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`refcat: 4 refs, ${count(r.stdout, enc).toLocaleString('en-US')} tokens (${enc})\n`);
    });
  }

  it('a glob of whole files: the count streamed to the worker is the count of what is printed', () => {
    // The files' bytes are read into a few buffers used again and again: the pieces sent to the
    // counting worker must be the bytes as they were printed.
    const r = run(['core/**/*.ts', '--tokens']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n## From: ').length).toBeGreaterThan(60);
    expect(r.stderr).toMatch(new RegExp(`, ${count(r.stdout).toLocaleString('en-US')} tokens \\(o200k_base\\)\\n$`));
  });

  it('--json: the stderr summary counts the JSON printed, and is all stderr gets', () => {
    const r = run([...refs, '@missing.ts', '--json', '--tokens']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).errors.map((e: { code: string }) => e.code)).toEqual(['not_found']);
    expect(r.stderr).toBe(`refcat: 4 refs, ${count(r.stdout).toLocaleString('en-US')} tokens (o200k_base)\n`);
  });

  it('--json: tokens per ref content, and a total equal to the markdown the same call prints', () => {
    const json = JSON.parse(run([...refs, '--json', '--tokens']).stdout);
    const markdown = run(refs).stdout;
    expect(json.tokens).toEqual({ encoding: 'o200k_base', total: count(markdown) });
    for (const r of json.refs) expect(r.tokens).toBe(count(r.content));
  });

  it('a bad encoding is a usage error', () => {
    const r = run([refs[0]!, '--tokens', '--encoding', 'p50k']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: .*p50k/);
  });

  it('--encoding without --tokens or --max-tokens is a usage error, not ignored', () => {
    const r = run([refs[0]!, '--encoding', 'cl100k_base']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('Error: --encoding chooses the tokenizer of --tokens and --max-tokens: give one of them\n');
    const fd = refcat(['fd', 'read', '--encoding', 'cl100k_base'], { input: 'text\n', cwd: src });
    expect(fd).toMatchObject({ code: 2, stdout: '' });
    expect(fd.stderr).toBe('Error: --encoding chooses the tokenizer of --tokens: give --tokens too\n');
  });
});

describe('--max-tokens', () => {
  const full = count(run(refs).stdout);
  // The smallest budget depends on the header, which names the checkout's folder.
  const least = Number(/needs at least (\d+) tokens/.exec(run([...refs, '--max-tokens', '1']).stderr)?.[1]);

  for (const extra of [0, 17, 300, 1200, 2500]) {
    it(`the smallest budget + ${extra} holds: what is printed counts at most that`, () => {
      const budget = least + extra;
      const r = run([...refs, '--max-tokens', String(budget), '--tokens']);
      expect(r.code).toBe(0);
      const printed = count(r.stdout);
      expect(printed).toBeLessThanOrEqual(budget);
      expect(r.stderr).toContain(`${printed.toLocaleString('en-US')} tokens (o200k_base)`);
      const cut = /… cut: (\d+) more lines \(about ([\d,]+) tokens\) over the budget of ([\d,]+)\n`{3,}\n$/.exec(r.stdout);
      const printedRefs = Number(/refcat: (\d+) refs?,/.exec(r.stderr)?.[1]);
      const leftOut = refs.slice(printedRefs);
      // The crossing ref is cut, or left out when not even one of its lines fits.
      if (cut) expect(Number(cut[3]!.replace(/,/g, ''))).toBe(budget);
      else expect(leftOut.length).toBeGreaterThan(0);
      expect(r.stderr).toBe(leftOut.map((x) => `Warning: left out (token budget): ${x}\n`).join('') + r.stderr.slice(r.stderr.indexOf('refcat: ')));
      // Blocks before the cut one are whole: the same text as without a budget.
      const lastHeader = r.stdout.lastIndexOf(`## From: ${refs[printedRefs - 1]!.slice(1).split('#')[0]}`);
      expect(lastHeader).toBeGreaterThanOrEqual(0);
      expect(run(refs).stdout.startsWith(r.stdout.slice(0, lastHeader))).toBe(true);
    });
  }

  for (const flags of [[], ['--no-attribution'], ['--no-line-numbers', '--absolute']]) {
    it(`many small refs ${flags.join(' ')}: the summary is the exact count of what is printed`, () => {
      for (const budget of [400, 900, 2000]) {
        const r = run(['shared/*.ts#L1-L12', 'cli/*.ts#L1-L8', ...flags, '--max-tokens', String(budget), '--tokens']);
        expect(r.code).toBe(0);
        const printed = count(r.stdout);
        expect(printed).toBeLessThanOrEqual(budget);
        expect(r.stderr).toMatch(new RegExp(`refcat: \\d+ refs?, ${printed.toLocaleString('en-US')} tokens \\(o200k_base\\)\\n$`));
      }
    });
  }

  it('a selection over 1 MiB is cut within the budget, the rest estimated', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-tok-big-'));
    try {
      fs.writeFileSync(path.join(dir, 'big.txt'), Array.from({ length: 60_000 }, (_, i) => `entry ${i}: some words here`).join('\n') + '\n');
      const r = refcat(['@big.txt', '@big.txt#L1-L3', '--max-tokens', '5000', '--tokens'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(count(r.stdout)).toBeLessThanOrEqual(5000);
      const m = /… cut: (\d+) more lines \(about ([\d,]+) tokens\)/.exec(r.stdout);
      const rest = Number(m![1]);
      const lines = fs.readFileSync(path.join(dir, 'big.txt'), 'utf8').split('\n').slice(60_000 - rest, 60_000);
      const exact = count(lines.join('\n') + '\n');
      expect(Math.abs(Number(m![2]!.replace(/,/g, '')) - exact) / exact).toBeLessThan(0.1);
      expect(r.stderr).toContain('Warning: left out (token budget): @big.txt#L1-L3\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a budget that holds everything changes nothing', () => {
    const r = run([...refs, '--max-tokens', String(full)]);
    expect(r.stdout).toBe(run(refs).stdout);
    expect(r.stderr).toBe('');
  });

  it('a budget too small for the first header exits 2 with the smallest budget that fits one line', () => {
    const r = run([...refs, '--max-tokens', '5']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const need = Number(/needs at least (\d+) tokens for one line/.exec(r.stderr)?.[1]);
    expect(need).toBeGreaterThan(5);
    const ok = run([...refs, '--max-tokens', String(need)]);
    expect(ok.code).toBe(0);
    expect(count(ok.stdout)).toBeLessThanOrEqual(need);
    expect(ok.stdout).toMatch(/^1 \| /m);
    expect(run([...refs, '--max-tokens', String(need - 1)]).code).toBe(2);
  });

  it('--max-tokens goes with markdown only', () => {
    const r = run([refs[0]!, '--max-tokens', '100', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: --max-tokens budgets the markdown output/);
  });
});

describe('start-up', () => {
  const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-trace-')), 'loaded.txt');
  afterAll(() => fs.rmSync(path.dirname(trace), { recursive: true, force: true }));

  it('a plain ref loads neither the MCP SDK, zod, a tokenizer, the language server, tree-sitter nor secretlint', () => {
    const r = spawnSync(process.execPath, ['--import', path.join(REPO, 'test/helpers/trace-imports.mjs'), BIN, refs[0]!], {
      cwd: src,
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), REFCAT_TRACE_IMPORTS: trace },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const loaded = fs.readFileSync(trace, 'utf8').split('\n');
    // The bin runs the bundle (one CommonJS file), whose dependencies load only when used.
    expect(loaded.some((u) => u.endsWith('/dist/bin/main.cjs'))).toBe(true);
    expect(loaded.filter((u) => /node_modules\/(@modelcontextprotocol|zod|gpt-tokenizer|js-tiktoken|commander|vscode-languageserver|vscode-languageserver-protocol|vscode-languageserver-textdocument|vscode-jsonrpc|web-tree-sitter|tree-sitter-wasms|@secretlint)\//.test(u))).toEqual([]);
    expect(loaded.filter((u) => /dist\/(core|cli)\//.test(u))).toEqual([]);
  });

  it('a plain ref loads neither node:v8 nor node:worker_threads: only symbols and workers use them, 2-4 ms of a start', () => {
    // Without the trace's hooks, which run in a worker and so load worker_threads themselves.
    const probe = [
      'const before = new Set(process.moduleLoadList);',
      "process.on('exit', () => process.stderr.write(process.moduleLoadList.filter((m) => !before.has(m) && /^NativeModule (v8|worker_threads)$/.test(m)).join('\\n')));",
      `process.argv = [process.argv[0], ${JSON.stringify(BIN)}, ${JSON.stringify(refs[0])}];`,
      `require(${JSON.stringify(BIN)});`,
    ].join('\n');
    const plain = spawnSync(process.execPath, ['-e', probe], { cwd: src, env: { PATH: process.env.PATH, HOME: os.tmpdir() }, encoding: 'utf8' });
    expect([plain.status, plain.stderr]).toEqual([0, '']);
    // ... and the probe sees them where they are used, so this test can fail.
    const outline = spawnSync(process.execPath, ['-e', probe.replace(JSON.stringify(refs[0]), `${JSON.stringify(refs[0])}, '--outline'`)], {
      cwd: src,
      env: { PATH: process.env.PATH, HOME: os.tmpdir() },
      encoding: 'utf8',
    });
    expect(outline.status).toBe(0);
    expect(outline.stderr).toContain('NativeModule v8');
  });

  it('the bundles are ASCII: V8 holds them as one-byte strings (one non-Latin-1 character doubles the source in memory)', () => {
    for (const file of ['main.cjs', 'count-worker.cjs', 'parse-worker.cjs']) {
      const text = fs.readFileSync(path.join(REPO, 'dist/bin', file), 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      expect(at === -1 ? '' : `${file}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`).toBe('');
    }
  });

  it('`verify refs` loads no commander: the command CI runs parses its flags without it', () => {
    const traced = (args: string[]) => {
      fs.rmSync(trace, { force: true });
      const r = spawnSync(process.execPath, ['--import', path.join(REPO, 'test/helpers/trace-imports.mjs'), BIN, ...args], {
        cwd: src,
        env: { PATH: process.env.PATH, HOME: os.tmpdir(), REFCAT_TRACE_IMPORTS: trace },
        encoding: 'utf8',
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      return fs.readFileSync(trace, 'utf8').split('\n').filter((u) => /node_modules\/commander\//.test(u));
    };
    expect(traced(['verify', 'refs', '.', '--strict', '--format', 'text'])).toEqual([]);
    // ... and the trace sees commander where it is used, so this test can fail.
    expect(traced(['verify', 'refs', '--help']).length).toBeGreaterThan(0);
  });

  it('the trace does see the language server when refcat lsp runs (so the test above can fail)', () => {
    fs.rmSync(trace, { force: true });
    // stdin at its end: the server starts, sees the client gone and ends (exit 1: no shutdown).
    const r = spawnSync(process.execPath, ['--import', path.join(REPO, 'test/helpers/trace-imports.mjs'), BIN, 'lsp', '--stdio'], {
      cwd: src,
      input: '',
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), REFCAT_TRACE_IMPORTS: trace },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const loaded = fs.readFileSync(trace, 'utf8').split('\n');
    for (const pkg of ['vscode-languageserver', 'vscode-languageserver-protocol', 'vscode-languageserver-textdocument', 'vscode-jsonrpc']) {
      expect(loaded.some((u) => u.includes(`/node_modules/${pkg}/`))).toBe(true);
    }
  });

  it('the trace does see tree-sitter when a symbol ref asks for it (so the test above can fail)', () => {
    fs.rmSync(trace, { force: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-trace-ts-'));
    fs.writeFileSync(path.join(dir, 'a.ts'), 'export function parseRef() {\n  return 1;\n}\n');
    const r = spawnSync(process.execPath, ['--import', path.join(REPO, 'test/helpers/trace-imports.mjs'), BIN, '@a.ts#parseRef', '--spec'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), REFCAT_TRACE_IMPORTS: trace },
      encoding: 'utf8',
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('@a.ts#L1-L3\n');
    const loaded = fs.readFileSync(trace, 'utf8').split('\n');
    expect(loaded.some((u) => /node_modules\/web-tree-sitter\//.test(u))).toBe(true);
    expect(loaded).toContain('node:v8');
  });

  it('the trace does see the tokenizer when a budget asks for it (so the test above can fail)', () => {
    fs.rmSync(trace, { force: true });
    const r = spawnSync(process.execPath, ['--import', path.join(REPO, 'test/helpers/trace-imports.mjs'), BIN, refs[0]!, '--max-tokens', '100000'], {
      cwd: src,
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), REFCAT_TRACE_IMPORTS: trace },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const loaded = fs.readFileSync(trace, 'utf8').split('\n');
    expect(loaded.some((u) => /node_modules\/gpt-tokenizer\//.test(u))).toBe(true);
    expect(loaded.some((u) => u.endsWith('/dist/bin/main.cjs'))).toBe(true);
    // Its rank table is read from the JSON the build wrote (src/core/tokens/rank-file.ts), not
    // compiled from gpt-tokenizer's module that holds it.
    expect(loaded.filter((u) => /node_modules\/gpt-tokenizer\/.*bpeRanks\//.test(u))).toEqual([]);
  });
});

describe('fd read --tokens', () => {
  const text = Array.from({ length: 3000 }, (_, i) => `entry ${i} — ✓ ${'🚀'.repeat(i % 3)}`).join('\n') + '\n';

  it('tokens="N" on fd_result and fd_content count the page shown', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-tok-store-'));
    try {
      const env = { REFCAT_STORE: path.join(home, 'store') };
      const first = refcat(['fd', 'read', '--tokens'], { input: text, env, cwd: src });
      expect(first.code).toBe(0);
      const m = /^<fd_result fd="(fd:\d+)" [^>]* tokens="(\d+)">\n[\s\S]*?<preview>\n([\s\S]*)\n {2}<\/preview>/.exec(first.stdout);
      expect(m, first.stdout.slice(0, 300)).not.toBeNull();
      expect(Number(m![2])).toBe(count(m![3]!));
      for (const enc of ['o200k_base', 'cl100k_base'] as const) {
        const page = refcat(['fd', 'read', m![1]!, '--page', '2', '--tokens', '--encoding', enc], { env, cwd: src });
        const p = /^<fd_content [^>]* tokens="(\d+)">\n([\s\S]*)\n<\/fd_content>\n$/.exec(page.stdout);
        expect(p).not.toBeNull();
        expect(Number(p![1])).toBe(count(p![2]!, enc));
      }
      const all = refcat(['fd', 'read', m![1]!, '--all', '--tokens'], { env, cwd: src });
      expect(all.code).toBe(2);
      expect(all.stderr).toMatch(/^Error: --tokens counts one page/);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
