import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../src/core/editor/check-document.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { hoverMarkdown } from '../../src/core/editor/ref-navigation.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: an editor hover shows a ref's lines as the CLI prints them, redacted.
describe('editor hover', () => {
  it('every rule: the hover of a ref to the file holds no value', () => {
    const fakes = fakeSecrets();
    const root = tmpDir(Object.fromEntries(fakes.map((s) => [s.file, s.rule === 'gcp' ? `${s.text}\n` : `// before\n${s.text}\n// after\n`])));
    const session = new EditorSession(testCtx(root));
    for (const s of fakes) {
      const ref = `@${s.file}`;
      const md = hoverMarkdown({ line: 0, start: 0, end: ref.length, text: ref, ref }, path.join(root, 'doc.md'), session);
      expect(md, s.rule).not.toContain(s.value);
      expect(md, s.rule).toMatch(/\[REDACTED [a-z0-9-]+\]/);
    }
  });
});

// docs/refs.md#secrets: a diagnostic that quotes a line (a stale snippet's missing lines, a line
// that is not a declaration) and a refresh's edit hold the redacted line.
describe('editor diagnostics', () => {
  it('every rule: no finding, message or fix holds the value', async () => {
    const fakes = fakeSecrets().map((s) => ({ ...s, file: `code/${s.file}` }));
    const code = (s: (typeof fakes)[number]) => `// before\n${s.text}\n// after\n`;
    const root = tmpDir(Object.fromEntries(fakes.map((s) => [s.file, code(s)])));
    const session = new EditorSession(testCtx(root));
    for (const s of fakes) {
      // A copy that lost a line since (stale, refreshable), and a pattern that matches the secret's line.
      const text = `\`\`\`text\n// @${s.file}\n// before\n${s.text}\n// gone\n\`\`\`\n\n\`\`\`text\n// @${s.file}#/^(?!\\/\\/ )./:function\nx\n\`\`\`\n`;
      const findings = await checkDocument({ path: path.join(root, 'doc.md'), kind: 'markdown', text, version: 1 }, session);
      const stale = findings!.find((f) => f.code === 'stale_snippet');
      expect(stale?.message, s.rule).toMatch(/: 1 of \d+ lines not in the code: \/\/ gone$/);
      expect(stale!.fixes[0]!.edits[0]!.newText, s.rule).toContain('[REDACTED ');
      expect(JSON.stringify(findings), s.rule).not.toContain(s.value);
    }
  });
});
