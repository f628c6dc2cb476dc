import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { prepareSymbolRefs } from '../../src/core/symbols/prepare-symbol-refs.js';
import { loadFileDeclarations } from '../../src/core/symbols/declaration-table.js';
import type { Declaration } from '../../src/core/symbols/declaration.js';
import { membersShown } from '../../src/core/symbols/outline.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx } from '../helpers/tmp.js';

/**
 * `--outline` on a real TypeScript tree, this repository's own src/ (docs/refs.md#outlines---outline):
 * every declaration outside code (a function or property body, a value) keeps its first line at
 * its number, every marker's ref reads exactly the lines left out or the declaration around them,
 * and the outline is at most half the size of the text.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Entry {
  line?: number;
  text?: string;
  ref?: string;
  start?: number;
  end?: number;
  omitted?: number;
}
interface JsonRef {
  path: string;
  display_path: string;
  content: string;
  outline: { not_outlined: string | null; entries: Entry[] };
}

describe('--outline of src/**/*.ts', async () => {
  const run = await refcatInProcess(['@src/**/*.ts', '--outline', '--json'], { cwd: ROOT });
  const refs = (JSON.parse(run.stdout) as { refs: JsonRef[] }).refs;
  // Each file's lines and table, read once for the tests that walk them all.
  const read = new Map<string, Promise<{ lines: string[]; table: Declaration[] }>>();
  const fileOf = (r: JsonRef) => {
    let got = read.get(r.path);
    if (!got) read.set(r.path, (got = loadFileDeclarations(r.path, r.display_path).then((table) => ({ lines: fs.readFileSync(r.path, 'utf8').split('\n'), table }))));
    return got;
  };

  it('outlines every file of the tree', () => {
    expect(run.code).toBe(0);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((r) => r.outline.not_outlined !== null)).toEqual([]);
  });

  it("keeps every declaration's first line at its line number, outside code (function and property bodies, values)", async () => {
    let checked = 0;
    for (const r of refs) {
      const { lines, table } = await fileOf(r);
      const kept = new Map(r.outline.entries.filter((e) => e.line !== undefined).map((e) => [e.line!, e.text!]));
      // Every kept line is the file's line of that number.
      for (const [n, text] of kept) expect(text, `${r.display_path}:${n}`).toBe(lines[n - 1]!.replace(/\r$/, ''));
      for (const d of table) {
        if (insideCode(d, table)) continue;
        expect(kept.has(d.startLine), `${r.display_path}#${d.path} (line ${d.startLine})`).toBe(true);
        expect(kept.has(d.declLine), `${r.display_path}#${d.path} (line ${d.declLine})`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('gives each marker a ref that reads exactly the lines left out, or the declaration around them', async () => {
    const markers = refs.flatMap((r) => r.outline.entries.filter((e) => e.ref !== undefined).map((e) => ({ r, e })));
    expect(markers.length).toBeGreaterThan(500);
    const ctx = testCtx(ROOT);
    await prepareSymbolRefs(markers.map((m) => m.e.ref!));
    const report = extract(markers.map((m) => m.e.ref!), ctx, { checkOnly: true });
    expect(report.errors).toEqual([]);
    expect(report.results.length).toBe(markers.length);
    report.results.forEach((x, i) => {
      const { r, e } = markers[i]!;
      const exact = x.lineStart === e.start && x.lineEnd === e.end;
      // A declaration's ref reads its doc comment and signature too: it must end where the body
      // does and begin at or before it.
      const around = x.symbol !== undefined && x.lineEnd === e.end && x.lineStart < e.start;
      expect(exact || around, `${e.ref} read L${x.lineStart}-L${x.lineEnd} for L${e.start}-L${e.end} of ${r.display_path}`).toBe(true);
      expect(e.omitted).toBeLessThanOrEqual(e.end! - e.start! + 1);
    });
  });

  it("leaves no line of a type's code out unsaid: each is kept or stands under a marker", async () => {
    let checked = 0;
    for (const r of refs) {
      const { lines, table } = await fileOf(r);
      const said = new Set<number>();
      for (const e of r.outline.entries) {
        if (e.line !== undefined) said.add(e.line);
        else for (let n = e.start!; n <= e.end!; n++) said.add(n);
      }
      for (const d of table) {
        if (insideCode(d, table) || !membersShown(d, table.filter((m) => m.parent === d.index))) continue;
        for (let n = d.startLine; n <= d.endLine; n++) {
          const text = lines[n - 1]!.trim();
          if (text === '' || text.startsWith('//') || text.startsWith('/*') || text.startsWith('*')) continue;
          expect(said.has(n), `${r.display_path}:${n} in ${d.path}: ${text}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('is at most half the size of the full text', () => {
    let full = 0;
    let outline = 0;
    for (const r of refs) {
      full += fs.statSync(r.path).size;
      outline += Buffer.byteLength(r.content) + 1;
    }
    expect(outline).toBeLessThanOrEqual(full / 2);
  });
});

/** Whether `d` is inside code an outline leaves out: a function body, a property's body, a value (outline.ts membersShown()). */
function insideCode(d: Declaration, table: readonly Declaration[]): boolean {
  for (let p = d.parent; p !== null; p = table[p]!.parent) {
    const parent = table[p]!;
    if (!membersShown(parent, table.filter((m) => m.parent === p))) return true;
  }
  return false;
}
