import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO, refcat } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

// Counts are checked against js-tiktoken on the text the bin printed.
const tiktoken = new Tiktoken(o200k);
const count = (text: string) => tiktoken.encode(text, [], []).length;

describe('refcat --outline (the bin)', () => {
  it("outlines this repository's src/ and exits 0", () => {
    const r = refcat(['@src/**/*.ts', '--outline', '--tokens'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('## Outline: src/')).toBe(true);
    expect(r.stdout).toContain('⋯');
    expect(r.stderr).toMatch(/^refcat: \d+ refs, [\d,]+ tokens \(o200k_base\)\n$/);
    expect(r.stderr).toContain(` ${count(r.stdout).toLocaleString('en-US')} tokens`);
  });

  it('keeps --max-tokens', () => {
    const budget = 4000;
    const r = refcat(['@src/**/*.ts', '--outline', '--max-tokens', String(budget)], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(count(r.stdout)).toBeLessThanOrEqual(budget);
    expect(r.stdout.startsWith('## Outline: src/')).toBe(true);
    // The outline of src/ is far larger than the budget: later files are left out, each named.
    expect(r.stderr).toMatch(/^Warning: left out \(token budget\): @src\//);
  });

  it('a FIFO named after enough files for the second core is refused, not read by the worker (which waited forever)', () => {
    const cwd = tmpDir();
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(cwd, `f${i}.ts`), `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`);
    execFileSync('mkfifo', [path.join(cwd, 'zz.ts')]);
    // Spawned with a timeout: the worker blocked in the read kept the process from exiting.
    const r = spawnSync(process.execPath, [BIN, '@f*.ts', '@zz.ts', '--outline'], { cwd, encoding: 'utf8', timeout: 30_000, env: { ...process.env, REFCAT_SYMBOL_CACHE: '0' } });
    expect([r.status, r.stderr]).toEqual([1, 'Error: Not a regular file: @zz.ts\n']);
    expect(r.stdout).toContain('## Outline: f39.ts');
  }, 60_000);
});
