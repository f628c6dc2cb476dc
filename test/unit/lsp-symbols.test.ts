import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionList, Hover, Location } from 'vscode-languageserver-protocol/node.js';
import { CompletionItemKind } from 'vscode-languageserver-protocol/node.js';
import { parsesOffThread } from '../../src/core/symbols/declaration-table.js';
import { loadedGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { type LspSession, startLsp } from '../helpers/lsp-client.js';
import { tmpDir } from '../helpers/tmp.js';

// Symbol refs in `refcat lsp` (docs/editor.md#refs-by-name), run in this process: the server
// parses in its worker (dist/core/symbols/parse-worker.js, built by `npm run build`), so this
// thread never loads a grammar, which the last test checks.
const APP_TS = [
  'export class Store {', // 1
  '  /** Saves. */', // 2
  '  save(): void {}', // 3
  '  load(): void {}', // 4
  '}', // 5
  'export function parse(a: string): number;', // 6
  'export function parse(a: unknown): number {', // 7
  '  return 1;', // 8
  '}', // 9
  'export function long(): void {', // 10
  ...Array.from({ length: 50 }, (_, i) => `  step(${i + 1});`), // 11-60
  '}', // 61
  'export class Loader {}', // 62
].join('\n') + '\n';

const PROJECT = {
  'src/app.ts': APP_TS,
  'docs/guide.md': 'Save: @src/app.ts#Store.save, typo: @src/app.ts#Store.sav, all: @src/app.ts#long.\n',
};

let session: LspSession | null = null;
afterEach(async () => {
  if (session) await session.stop().catch(() => {});
  session = null;
});

async function open(): Promise<{ root: string; s: LspSession }> {
  const root = tmpDir(PROJECT);
  session = await startLsp(root);
  return { root, s: session };
}

const pos = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });

describe('symbol refs in the editor', () => {
  it('a missing symbol is a diagnostic with the did-you-mean; a symbol that resolves is none', async () => {
    const { s } = await open();
    const p = await s.diagnostics(s.open('docs/guide.md'));
    expect(p.diagnostics.map((d) => [d.range.start.character, d.range.end.character, d.code, d.message])).toEqual([
      [36, 57, 'symbol_not_found', "Symbol 'Store.sav' not found in @src/app.ts#Store.sav (did you mean Store.save?)"],
    ]);
  });

  it('a name added to the target on disk clears its diagnostic at the next change', async () => {
    const { s, root } = await open();
    const uri = s.open('docs/guide.md');
    expect((await s.diagnostics(uri, (p) => p.version === 1)).diagnostics.map((d) => d.code)).toEqual(['symbol_not_found']);
    fs.writeFileSync(path.join(root, 'src/app.ts'), APP_TS.replace('  load(): void {}', '  load(): void {}\n  sav(): void {}'));
    s.change(uri, 2, fs.readFileSync(path.join(root, 'docs/guide.md'), 'utf8') + 'More.\n');
    expect((await s.diagnostics(uri, (p) => p.version === 2)).diagnostics).toEqual([]);
  });

  it('a workflow\'s REFCAT symbol ref is checked as validate checks it', async () => {
    const { s } = await open();
    const conv = s.open('flows/a.conv', 'MODEL gpt-4\nREFCAT @src/app.ts#Store.load @src/app.ts#Stor\nPROMPT go\n');
    const p = await s.diagnostics(conv);
    expect(p.diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.message.split('\n')[0]])).toEqual([
      [1, 30, "Symbol 'Stor' not found in @src/app.ts#Stor (did you mean Store?)"],
    ]);
  });

  it('hover shows the declaration\'s lines, a long one cut to 40', async () => {
    const { s, root } = await open();
    const uri = s.open('docs/guide.md');
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, 12))) as Hover;
    expect(h.contents).toEqual({ kind: 'markdown', value: `## From: src/app.ts:2-3 (relative to ${root})\n\`\`\`typescript\n2 |   /** Saves. */\n3 |   save(): void {}\n\`\`\`\n` });
    const long = ((await s.client.sendRequest('textDocument/hover', pos(uri, 0, 70))) as Hover).contents as { value: string };
    expect(long.value.split('\n').filter((l) => /^\d+ \| /.test(l)).length).toBe(40);
    expect(long.value).toContain('*… 12 more lines: `refcat @src/app.ts#long` prints them all*');
    const typo = ((await s.client.sendRequest('textDocument/hover', pos(uri, 0, 40))) as Hover).contents as { value: string };
    expect(typo.value).toContain("Error: Symbol 'Store.sav' not found");
  });

  it('go to definition opens the target at the declaration\'s first line', async () => {
    const { s, root } = await open();
    const uri = s.open('docs/guide.md');
    const target = pathToFileURL(path.join(root, 'src/app.ts')).href;
    const at = (line: number) => [{ uri: target, range: { start: { line, character: 0 }, end: { line, character: 0 } } }];
    expect((await s.client.sendRequest('textDocument/definition', pos(uri, 0, 12))) as Location[]).toEqual(at(1));
    expect((await s.client.sendRequest('textDocument/definition', pos(uri, 0, 70))) as Location[]).toEqual(at(9));
    // A name that is not there still opens the file.
    expect((await s.client.sendRequest('textDocument/definition', pos(uri, 0, 40))) as Location[]).toEqual(at(0));
  });

  it('completion after # in an alias ref lists the symbols of the file in the alias target', async () => {
    const root = tmpDir({ ...PROJECT, 'externals/Kit/Sources/A.swift': 'struct Point {\n  var x: Int\n}\n', 'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'kit', name: 'Kit' }] }) });
    session = await startLsp(root);
    const uri = session.open('docs/k.md', 'See kit:Sources/A.swift#\n');
    const items = ((await session.client.sendRequest('textDocument/completion', pos(uri, 0, 24))) as CompletionList).items;
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ['Point', 'struct  L1-L3'],
      ['Point.x', 'property  L2'],
    ]);
  });

  it('completion after # lists the file\'s symbol paths with kind and lines; #L still gives the line count', async () => {
    const { s } = await open();
    const complete = async (text: string) => {
      const uri = s.open(`docs/c${text.length}.md`, text + '\n');
      return ((await s.client.sendRequest('textDocument/completion', pos(uri, 0, text.length))) as CompletionList).items;
    };
    const all = await complete('See @src/app.ts#');
    expect(all.map((i) => [i.label, i.detail, i.kind])).toEqual([
      ['Store', 'class  L1-L5', CompletionItemKind.Class],
      ['Store.save', 'method  L2-L3', CompletionItemKind.Method],
      ['Store.load', 'method  L4', CompletionItemKind.Method],
      ['parse~1', 'function  L6', CompletionItemKind.Function],
      ['parse~2', 'function  L7-L9', CompletionItemKind.Function],
      ['long', 'function  L10-L61', CompletionItemKind.Function],
      ['Loader', 'class  L62', CompletionItemKind.Class],
    ]);
    const members = await complete('See @src/app.ts#Store.');
    expect(members.map((i) => i.label)).toEqual(['Store.save', 'Store.load']);
    expect(members[0]!.textEdit).toEqual({ range: { start: { line: 0, character: 16 }, end: { line: 0, character: 22 } }, newText: 'Store.save' });
    // `#L` may start a range or a name (`#Loader`): both are offered; `#L5` is a range.
    const lines = await complete('See @src/app.ts#L');
    expect(lines.map((i) => i.label)).toEqual(['L1-L62', 'L62', 'Loader']);
    expect(lines[0]!.detail).toBe('62 lines');
    expect((await complete('See @src/app.ts#L5')).map((i) => i.label)).toEqual(['L5-L62', 'L5']);
    expect(await complete('A file without a grammar: @docs/guide.md#')).toEqual([]);
    // Not a ref without `@` in prose; on a workflow's REFCAT line it is.
    expect(await complete('In prose src/app.ts#')).toEqual([]);
    const conv = s.open('flows/c.conv', 'MODEL gpt-4\nREFCAT src/app.ts#Sto\n');
    const inConv = ((await s.client.sendRequest('textDocument/completion', pos(conv, 1, 21))) as CompletionList).items;
    expect(inConv.map((i) => i.label)).toEqual(['Store', 'Store.save', 'Store.load']);
  });

  it('completion offers no name a symbol ref cannot write (a private member, a computed name)', async () => {
    const root = tmpDir({ 'src/p.ts': 'export class Store {\n  #secret = 1;\n  [Symbol.dispose](): void {}\n  save(): void {}\n}\n' });
    session = await startLsp(root);
    const uri = session.open('docs/p.md', 'See @src/p.ts#Store.\n');
    const items = ((await session.client.sendRequest('textDocument/completion', pos(uri, 0, 20))) as CompletionList).items;
    expect(items.map((i) => i.label)).toEqual(['Store.save']);
  });

  it('parses in the worker: no grammar is loaded in the server\'s thread', async () => {
    const { s } = await open();
    await s.diagnostics(s.open('docs/guide.md'));
    expect(parsesOffThread()).toBe(true);
    for (const l of SYMBOL_LANGUAGES) expect(loadedGrammar(l), l.id).toBeNull();
    // Once it stops, its worker is ended and this thread would parse again.
    expect(await s.stop()).toBe(0);
    session = null;
    expect(parsesOffThread()).toBe(false);
  });
});
