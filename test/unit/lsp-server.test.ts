import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodeAction, CompletionList, Hover, Location, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { type LspSession, startLsp } from '../helpers/lsp-client.js';
import { tmpDir } from '../helpers/tmp.js';

/** A small project: code, docs citing it, a workflow, an alias and an ignored folder. */
const PROJECT = {
  'src/app.ts': numbered('app', 100),
  'src/util/math.ts': 'export const one = 1;\n',
  'src/secret.ts': 'ignored\n',
  'src/ignored-dir/x.ts': 'x\n',
  '.gitignore': 'src/secret.ts\nsrc/ignored-dir/\n',
  'lib/moved/helper.py': 'def helper():\n  return 1\n',
  'externals/LoopKit/Sources/A.swift': numbered('swift', 12),
  'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'loop', name: 'LoopKit' }] }),
  'docs/good.md': 'Lines @src/app.ts#L10-L12, the file @src/util/math.ts and loop:Sources/A.swift#L3.\n',
  'docs/bad.md': '# Notes\n\nSee @src/gone.ts and @src/app.ts#L90-L120 or `@helper.py#L1`.\n',
  'flows/good.conv': 'MODEL gpt-4\nREFCAT @src/app.ts#L1-L5\nPROMPT Explain.\n',
  'flows/bad.conv': 'MODEL gpt-4\nPROMTP typo\nREFCAT @src/app.ts#L1 @src/nope.ts\nPROMPT Explain.\n',
};

let session: LspSession | null = null;
afterEach(async () => {
  if (session) await session.stop().catch(() => {});
  session = null;
});

async function open(files: Record<string, string> = PROJECT): Promise<{ root: string; s: LspSession }> {
  const root = tmpDir(files);
  session = await startLsp(root);
  return { root, s: session };
}

const pos = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });
const brief = (p: PublishDiagnosticsParams) =>
  p.diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.character} ${d.severity} ${d.code} ${d.message.split('\n')[0]}`);

describe('diagnostics', () => {
  it('a doc whose refs all resolve (alias refs included) gets an empty list', async () => {
    const { s } = await open();
    const p = await s.diagnostics(s.open('docs/good.md'));
    expect(p.version).toBe(1);
    expect(p.diagnostics).toEqual([]);
  });

  it('broken refs and bad ranges sit at the ref\'s line and columns, with the CLI\'s messages', async () => {
    const { s, root } = await open();
    const p = await s.diagnostics(s.open('docs/bad.md'));
    expect(brief(p)).toEqual([
      '2:4-16 1 not_found REFCAT ref not found: @src/gone.ts',
      '2:21-41 2 clamped REFCAT line range exceeds file bounds: @src/app.ts#L90-L120',
      '2:46-59 1 not_found REFCAT ref not found: @helper.py#L1',
    ]);
    expect(p.diagnostics[0]!.message).toContain(`Searched: ${path.join(root, 'src/gone.ts')}`);
    expect(p.diagnostics[1]!.message).toBe('REFCAT line range exceeds file bounds: @src/app.ts#L90-L120\nFile has 100 lines, will clamp to L90-L100');
  });

  it('.conv documents get validate\'s findings; a valid workflow none', async () => {
    const { s } = await open();
    expect((await s.diagnostics(s.open('flows/good.conv'))).diagnostics).toEqual([]);
    const p = await s.diagnostics(s.open('flows/bad.conv'));
    expect(brief(p)).toEqual([
      "1:0-11 2 unknown_directive Unknown directive 'PROMTP' (did you mean PROMPT?)",
      '2:22-34 1 not_found REFCAT ref not found: @src/nope.ts',
    ]);
  });

  it('unsaved text counts: an edit that breaks a ref is reported before any save', async () => {
    const { s } = await open();
    const uri = s.open('docs/good.md');
    await s.diagnostics(uri, (p) => p.version === 1);
    s.change(uri, 2, 'Now @src/app.ts#L1 and @src/typo.ts\n');
    const p = await s.diagnostics(uri, (x) => x.version === 2);
    expect(brief(p)).toEqual(['0:23-35 1 not_found REFCAT ref not found: @src/typo.ts']);
  });

  it('partial refs while typing: no crash, and a folder is never taken for a file', async () => {
    const { s } = await open();
    const uri = s.open('docs/typing.md', 'See @src/\n');
    expect((await s.diagnostics(uri, (p) => p.version === 1)).diagnostics).toEqual([]);
    // A lone `#L` is a line range being typed (docs/symbols.md#the-grammar): nothing to say yet.
    s.change(uri, 2, 'See @src/app.ts#L\n');
    expect((await s.diagnostics(uri, (p) => p.version === 2)).diagnostics).toEqual([]);
    s.change(uri, 3, 'See @src/util.ts#L\n');
    expect(brief(await s.diagnostics(uri, (p) => p.version === 3))).toEqual(['0:4-18 1 not_found REFCAT ref not found: @src/util.ts']);
    const conv = s.open('flows/typing.conv', 'PROMPT x\nREFCAT @src/\n');
    expect(brief(await s.diagnostics(conv))).toEqual(['1:7-12 1 is_directory Is a directory: @src/']);
    expect(await s.client.sendRequest('textDocument/definition', pos(conv, 1, 9))).toBeNull();
  });
});

describe('drift (open and save, in a git repository)', () => {
  it('a moved ref is a warning with a "Move ref to" action that carries its own edit', async () => {
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 20), 'docs/notes.md': 'Intro.\nSee @lib/x.js#L10-L12 here.\n' });
    repo.write({ 'lib/x.js': numbered('new', 4) + numbered('x', 20) });
    session = await startLsp(repo.dir);
    const s = session;
    const uri = s.open('docs/notes.md');
    const p = await s.diagnostics(uri);
    expect(brief(p)).toEqual([expect.stringMatching(/^1:4-21 2 moved MOVED @lib\/x\.js#L10-L12 → @lib\/x\.js#L14-L16 \(since [0-9a-f]{7}\)$/)]);
    const actions = (await s.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 1, character: 6 }, end: { line: 1, character: 6 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Move ref to @lib/x.js#L14-L16']);
    expect(actions[0]!.edit).toEqual({ changes: { [uri]: [{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 21 } }, newText: '@lib/x.js#L14-L16' }] } });
    // Typing elsewhere keeps the verdict on its line; editing the ref's line drops it.
    s.change(uri, 2, 'New first line.\nIntro.\nSee @lib/x.js#L10-L12 here.\n');
    expect(brief(await s.diagnostics(uri, (x) => x.version === 2))).toEqual([expect.stringMatching(/^2:4-21 2 moved /)]);
    s.change(uri, 3, 'Intro.\nSee @lib/x.js#L14-L16 here.\n');
    expect((await s.diagnostics(uri, (x) => x.version === 3)).diagnostics).toEqual([]);
  });

  it('a stale cited snippet is an error at its ref with a "Refresh snippet from" action; a broken in-fence citation is reported', async () => {
    const doc = ['# Cited', '', '```ts', '// @src/app.ts#L2-L3', 'app 2', 'app three', '```', '', '```ts', '// @src/gone.ts#L1', 'x', '```', ''].join('\n');
    const { s } = await open({ 'src/app.ts': numbered('app', 5), 'docs/cited.md': doc });
    const uri = s.open('docs/cited.md');
    const p = await s.diagnostics(uri);
    expect(brief(p)).toEqual(['3:3-20 1 stale_snippet snippet differs from @src/app.ts#L2-L3: 1 of 2 lines not in the code: app three', '9:3-18 1 not_found REFCAT ref not found: @src/gone.ts#L1']);
    const actions = (await s.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 3, character: 5 }, end: { line: 3, character: 5 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Refresh snippet from @src/app.ts#L2-L3']);
    expect(actions[0]!.edit).toEqual({ changes: { [uri]: [{ range: { start: { line: 4, character: 0 }, end: { line: 6, character: 0 } }, newText: 'app 2\napp 3\n' }] } });
    // The edit applied: the snippet is true again, and nothing is reported for it.
    s.change(uri, 2, doc.replace('app three', 'app 3'));
    expect(brief(await s.diagnostics(uri, (x) => x.version === 2))).toEqual(['9:3-18 1 not_found REFCAT ref not found: @src/gone.ts#L1']);
  });

  it('a ref to a file there neither now nor at the base: its error only, not also an unknown drift verdict', async () => {
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 20), 'docs/notes.md': 'See @lib/gone.js#L2 here.\nThen @lib/later.js#L1.\n' });
    repo.write({ 'lib/later.js': 'added after the doc\n' });
    session = await startLsp(repo.dir);
    const p = await session.diagnostics(session.open('docs/notes.md'));
    expect(brief(p)).toEqual([
      '0:4-19 1 not_found REFCAT ref not found: @lib/gone.js#L2',
      expect.stringMatching(/^1:5-21 2 unknown UNKNOWN @lib\/later\.js#L1: lib\/later\.js did not exist at [0-9a-f]{7}$/),
    ]);
  });

  it('outside a git repository there is no drift, only the live checks', async () => {
    const { s } = await open({ 'lib/x.js': numbered('x', 20), 'docs/notes.md': 'See @lib/x.js#L10-L12.\n' });
    expect((await s.diagnostics(s.open('docs/notes.md'))).diagnostics).toEqual([]);
  });
});

describe('hover', () => {
  it('shows the selected lines attributed as the markdown output', async () => {
    const { s, root } = await open();
    const uri = s.open('docs/good.md');
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, 10))) as Hover;
    expect(h.contents).toEqual({ kind: 'markdown', value: `## From: src/app.ts:10-12 (relative to ${root})\n\`\`\`typescript\n10 | app 10\n11 | app 11\n12 | app 12\n\`\`\`\n` });
    expect(h.range).toEqual({ start: { line: 0, character: 6 }, end: { line: 0, character: 25 } });
  });

  it('cuts a long selection to 40 lines with a note', async () => {
    const { s } = await open();
    const uri = s.open('docs/long.md', 'All of @src/app.ts here.\n');
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, 9))) as Hover;
    const value = (h.contents as { value: string }).value;
    expect(value.split('\n').filter((l) => l.startsWith('app ')).length).toBe(40);
    expect(value).toContain('app 40\n```');
    expect(value).toContain('*… 60 more lines: `refcat @src/app.ts` prints them all*');
  });

  it('a broken ref shows the error; a word that is not a ref shows nothing', async () => {
    const { s } = await open();
    const uri = s.open('docs/bad.md');
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 2, 6))) as Hover;
    expect((h.contents as { value: string }).value).toMatch(/^```text\nError: REFCAT ref not found: @src\/gone\.ts\n {2}Searched: /);
    expect(await s.client.sendRequest('textDocument/hover', pos(uri, 0, 3))).toBeNull();
  });
});

describe('go to definition', () => {
  it('lands on the first selected line, alias refs and workflow refs too', async () => {
    const { s, root } = await open();
    const doc = s.open('docs/good.md');
    const at = async (uri: string, line: number, ch: number) => (await s.client.sendRequest('textDocument/definition', pos(uri, line, ch))) as Location[] | null;
    const file = (rel: string) => pathToFileURL(path.join(root, rel)).href;
    expect(await at(doc, 0, 8)).toEqual([{ uri: file('src/app.ts'), range: { start: { line: 9, character: 0 }, end: { line: 9, character: 0 } } }]);
    expect((await at(doc, 0, 40))![0]).toMatchObject({ uri: file('src/util/math.ts'), range: { start: { line: 0 } } });
    expect((await at(doc, 0, 70))![0]).toMatchObject({ uri: file('externals/LoopKit/Sources/A.swift'), range: { start: { line: 2 } } });
    const conv = s.open('flows/good.conv');
    expect((await at(conv, 1, 12))![0]).toMatchObject({ uri: file('src/app.ts'), range: { start: { line: 0 } } });
  });

  it('a missing file or no ref under the cursor is no definition', async () => {
    const { s } = await open();
    const uri = s.open('docs/bad.md');
    expect(await s.client.sendRequest('textDocument/definition', pos(uri, 2, 6))).toBeNull();
    expect(await s.client.sendRequest('textDocument/definition', pos(uri, 0, 1))).toBeNull();
  });
});

describe('completion', () => {
  const labels = async (s: LspSession, text: string, rel = 'docs/c.md') => {
    const uri = s.open(rel, text);
    const line = text.split('\n').length - 1;
    const list = (await s.client.sendRequest('textDocument/completion', pos(uri, line, text.split('\n')[line]!.length))) as CompletionList | null;
    return list?.items.map((i) => `${i.label}${i.detail ? ` (${i.detail})` : ''}`) ?? null;
  };

  it('after @: paths under the root, .gitignore honoured; after #L: the line count', async () => {
    const { s } = await open();
    expect(await labels(s, 'see @s')).toEqual(['src/']);
    expect(await labels(s, 'see @src/')).toEqual(['app.ts', 'util/']);
    expect(await labels(s, 'see @src/app.ts#L')).toEqual(['L1-L100 (100 lines)', 'L100 (100 lines)']);
    expect(await labels(s, 'see @src/app.ts#L40')).toEqual(['L40-L100 (100 lines)', 'L40 (100 lines)']);
  });

  it('after alias: the alias target; in a workflow a REFCAT ref needs no @', async () => {
    const { s } = await open();
    expect(await labels(s, 'see loop:Sources/')).toEqual(['A.swift']);
    expect(await labels(s, 'MODEL x\nREFCAT src/ut', 'flows/c.conv')).toEqual(['util/']);
  });

  it('the text edit replaces only the typed part of the name', async () => {
    const { s } = await open();
    const uri = s.open('docs/c.md', 'see @src/ap');
    const list = (await s.client.sendRequest('textDocument/completion', pos(uri, 0, 11))) as CompletionList;
    expect(list.items[0]!.textEdit).toEqual({ range: { start: { line: 0, character: 9 }, end: { line: 0, character: 11 } }, newText: 'app.ts' });
  });

  it('nothing for an e-mail, an unknown alias, a folder before #L or a missing folder', async () => {
    const { s } = await open();
    expect(await labels(s, 'mail me@s')).toEqual([]);
    expect(await labels(s, 'see nope:src/')).toEqual([]);
    expect(await labels(s, 'see @src/util#L')).toEqual([]);
    expect(await labels(s, 'see @nowhere/')).toEqual([]);
  });
});

describe('code actions', () => {
  it('"Replace with <suggestion>" for a broken ref whose file exists elsewhere', async () => {
    const { s } = await open();
    const uri = s.open('docs/bad.md');
    await s.diagnostics(uri);
    const actions = (await s.client.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 2, character: 50 }, end: { line: 2, character: 50 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Replace with @lib/moved/helper.py#L1']);
    expect(actions[0]!.edit!.changes![uri]).toEqual([{ range: { start: { line: 2, character: 46 }, end: { line: 2, character: 59 } }, newText: '@lib/moved/helper.py#L1' }]);
    expect(actions[0]!.diagnostics![0]!.code).toBe('not_found');
  });

  it('no action where nothing is found or has no suggestion', async () => {
    const { s } = await open();
    const uri = s.open('docs/bad.md');
    await s.diagnostics(uri);
    const ask = (line: number, ch: number) =>
      s.client.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: { line, character: ch }, end: { line, character: ch } }, context: { diagnostics: [] } });
    expect(await ask(0, 2)).toEqual([]);
    expect(await ask(2, 6)).toEqual([]); // src/gone.ts exists nowhere
  });
});

describe('live checking', () => {
  it('100 quick edits: the last result wins, and every result published is for the text of its version', async () => {
    const { s } = await open();
    const uri = s.open('docs/live.md', 'start\n');
    await s.diagnostics(uri, (p) => p.version === 1);
    // Version v breaks the ref of line v only: a result tells which text it was computed from.
    const textOf = (v: number) => Array.from({ length: v }, (_, i) => (i === v - 1 ? `@src/missing-${v}.ts` : `@src/app.ts#L${i + 1}`)).join('\n') + '\n';
    for (let v = 2; v <= 101; v++) s.change(uri, v, textOf(v));
    const last = await s.diagnostics(uri, (p) => p.version === 101);
    expect(brief(last)).toEqual(['100:0-19 1 not_found REFCAT ref not found: @src/missing-101.ts']);
    const afterOpen = s.published.filter((p) => p.uri === uri && p.version !== 1);
    let previous = 0;
    for (const p of afterOpen) {
      expect(p.version!).toBeGreaterThan(previous);
      previous = p.version!;
      expect(brief(p)).toEqual([`${p.version! - 1}:0-${`@src/missing-${p.version}.ts`.length} 1 not_found REFCAT ref not found: @src/missing-${p.version}.ts`]);
    }
    expect(afterOpen[afterOpen.length - 1]!.version).toBe(101);
  });

  it('a 5 MB document is not checked as you type (one note), and the server keeps serving it', async () => {
    const { s } = await open();
    const big = 'see @src/app.ts#L2\n' + 'x'.repeat(99) + '\n'.repeat(1) + ('filler line of text @src/nope.ts\n').repeat(160_000);
    expect(big.length).toBeGreaterThan(5_000_000);
    const uri = s.open('docs/big.md', big);
    const p = await s.diagnostics(uri);
    expect(brief(p)).toEqual([expect.stringMatching(/^0:0-0 3 document_too_large Not checked as you type: the document is 5\.\d MiB/)]);
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, 6))) as Hover;
    expect((h.contents as { value: string }).value).toContain('2 | app 2');
  });
});

describe('bad input', () => {
  it('an unknown method gets MethodNotFound, malformed params InvalidParams; the server keeps serving', async () => {
    const { s } = await open();
    const uri = s.open('docs/good.md');
    await expect(s.client.sendRequest('refcat/nope', {})).rejects.toMatchObject({ code: -32601 });
    await expect(s.client.sendRequest('textDocument/hover', { textDocument: { uri } })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid params: position/) });
    await expect(s.client.sendRequest('textDocument/completion', null)).rejects.toMatchObject({ code: -32602 });
    await expect(s.client.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: 'everything' })).rejects.toMatchObject({ code: -32602 });
    void s.client.sendNotification('textDocument/didOpen', { textDocument: 42 });
    void s.client.sendNotification('textDocument/didChange', { textDocument: { uri: 'file:///nowhere.md', version: 2 }, contentChanges: [{ text: 'x' }] });
    void s.client.sendNotification('refcat/unknown-notification', [1, 2]);
    const h = (await s.client.sendRequest('textDocument/hover', pos(uri, 0, 10))) as Hover;
    expect((h.contents as { value: string }).value).toContain('10 | app 10');
  });

  it('documents the server does not serve (other languages, other schemes) get nothing', async () => {
    const { s } = await open();
    void s.client.sendNotification('textDocument/didOpen', { textDocument: { uri: 'untitled:Untitled-1', languageId: 'markdown', version: 1, text: '@src/nope.ts' } });
    const other = s.open('src/x.ts', '// @src/nope.ts\n', 'typescript');
    expect(await s.client.sendRequest('textDocument/hover', pos(other, 0, 5))).toBeNull();
    expect(await s.client.sendRequest('textDocument/hover', { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 2 } })).toBeNull();
    expect(s.published.filter((p) => p.uri === other || p.uri.startsWith('untitled:'))).toEqual([]);
  });
});

describe('transport and exit', () => {
  it('exit after shutdown is exit code 0; exit without shutdown 1; hanging up ends the command too', async () => {
    const root = tmpDir(PROJECT);
    const a = await startLsp(root);
    expect(await a.stop()).toBe(0);
    const b = await startLsp(root);
    await b.client.sendNotification('exit');
    expect(await b.exitCode).toBe(1);
    b.client.dispose();
    expect(fs.existsSync(root)).toBe(true);
  });
});
