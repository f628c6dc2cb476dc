import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/agents.md#secrets: the tools answer with redacted text, and no argument turns that off.

const FAKES = fakeSecrets();
const files = Object.fromEntries(FAKES.map((s) => [s.file, s.rule === 'gcp' ? `${s.text}\n` : `// before\n${s.text}\n// after\n`]));
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
const agentIn = (dir: string) => ({ ctx: testCtx(dir), store: path.join(dir, '.store') });

describe('refcat mcp: answers never hold a secret', () => {
  it('extract: every rule redacted, with its warning', async () => {
    const dir = tmpDir(files);
    for (const s of FAKES) {
      const r = await runTool(tool('extract'), { refs: [`@${s.file}`] }, agentIn(dir));
      expect(r.isError, r.text).toBe(false);
      expect(r.text).not.toContain(s.value);
      expect(r.text).toMatch(/\[REDACTED [a-z0-9-]+\]/);
    }
    const json = await runTool(tool('extract'), { refs: ['@src/config.ts'], format: 'json' }, agentIn(dir));
    expect(JSON.parse(json.text).refs[0].redacted).toEqual([{ line: 2, rule: 'github' }]);
  });

  it('fd_read: pages of 8 characters never spell a secret', async () => {
    const dir = tmpDir(files);
    for (const s of FAKES) {
      let pages = '';
      for (let page = 1; page < 400; page++) {
        const r = await runTool(tool('fd_read'), { path: s.file, page, page_size: 8 }, agentIn(dir));
        if (r.isError) break;
        expect(r.text).not.toContain(s.value);
        // The page's own text, between its tags: joined, the pages give back the content.
        const m = /^<fd_content [^>]*>\n([\s\S]*)\n<\/fd_content>/.exec(r.text);
        pages += m ? m[1] : '';
      }
      expect(pages, s.rule).not.toContain(s.value);
      expect(pages, s.rule).toMatch(/\[REDACTED [a-z0-9-]+\]/);
    }
  });

  it('a call that asks for allow, in any argument, still gets redacted text', async () => {
    const dir = tmpDir(files);
    const s = FAKES.find((f) => f.rule === 'github')!;
    for (const args of [
      { refs: ['@src/config.ts'], secrets: 'allow' },
      { refs: ['@src/config.ts', '--secrets=allow'] },
      { refs: ['@src/config.ts'], format: 'allow' },
    ]) {
      const r = await runTool(tool('extract'), args, agentIn(dir));
      expect(r.text).not.toContain(s.value);
    }
    const fd = await runTool(tool('fd_read'), { path: 'src/config.ts', secrets: 'allow' }, agentIn(dir));
    expect(fd.text).not.toContain(s.value);
  });
});

describe('refcat mcp --secrets=allow', () => {
  it('only a server started with allow answers with the secret as it is', async () => {
    const dir = tmpDir(files);
    const s = FAKES.find((f) => f.rule === 'github')!;
    const agent = { ...agentIn(dir), secrets: 'allow' as const };
    const r = await runTool(tool('extract'), { refs: ['@src/config.ts'] }, agent);
    expect(r.text).toContain(s.value);
    const fd = await runTool(tool('fd_read'), { path: 'src/config.ts' }, agent);
    expect(fd.text).toContain(s.value);
    const withheld = await runTool(tool('extract'), { refs: ['@src/config.ts'] }, { ...agentIn(dir), secrets: 'withhold' as const });
    expect(withheld.text).not.toContain(s.value);
    expect(withheld.text).toContain('Left out src/config.ts');
  });
});

describe('refcat mcp --secrets=withhold and fail: fd_read leaves content with a secret out, as extract does', () => {
  it.each(['withhold', 'fail'] as const)('%s: every rule, by path and as text; a clean file still reads', async (mode) => {
    const dir = tmpDir({ ...files, 'clean.txt': 'nothing here\n' });
    const agent = { ...agentIn(dir), secrets: mode };
    for (const s of FAKES) {
      // Text has no name: `.npmrc`'s rule looks only in files of that name (docs/refs.md#secrets).
      const asText = s.file === '.npmrc' ? [] : [{ text: `// before\n${s.text}\n// after\n` }];
      for (const args of [{ path: s.file }, ...asText]) {
        const r = await runTool(tool('fd_read'), args, agent);
        expect(r.isError, `${s.rule}: ${r.text}`).toBe(true);
        expect(r.text).not.toContain(s.value);
        expect(r.text).toContain(mode === 'fail' ? 'secret_found' : 'secret_withheld');
        expect(r.text).toContain(`(--secrets=${mode})`);
      }
    }
    const clean = await runTool(tool('fd_read'), { path: 'clean.txt' }, agent);
    expect(clean.isError).toBe(false);
    expect(clean.text).toContain('nothing here');
  });
});
