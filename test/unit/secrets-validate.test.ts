import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool, TOOLS } from '../../src/core/agents/mcp-tools.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

// docs/refs.md#secrets: a message that quotes a file's line quotes it from the redacted lines,
// and validate's messages quote a workflow's lines (a value, text outside any directive).

const github = fakeSecrets().find((s) => s.rule === 'github' && s.value.startsWith('ghp_'))!;
const postgres = fakeSecrets().find((s) => s.rule === 'database-connection-string' && s.value.startsWith('postgres'))!;

const WORKFLOW = [
  'PROMPT hi',
  `RUN deploy --token ${github.value}`,
  `  --password ${github.value}`,
  `CHECKPOINT-AFTER ${github.value}`,
  `ON-CONTEXT-LIMIT ${postgres.value}`,
  `MAX-CYCLES ${github.value}`,
  `ALIAS ${github.value}`,
  // A long line: the quote is cut at 70 characters, in the middle of the secret.
  'RUN x',
  `${'z'.repeat(50)} ${github.value}`,
  '',
].join('\n');

function noSecret(out: string): void {
  expect(out).not.toContain(github.value);
  expect(out).not.toContain(postgres.secret);
  // Not a piece of one either: the 70-character cut must not leave the secret's start.
  expect(out).not.toContain(github.value.slice(0, 12));
}

describe('validate quotes a workflow from its redacted lines', () => {
  it.each([[[]], [['--json']], [['--format', 'github']]])('refcat validate %j', async (args) => {
    const dir = tmpDir({ 'flow.conv': WORKFLOW });
    const r = await refcatInProcess(['validate', 'flow.conv', ...args], { cwd: dir });
    noSecret(r.stdout + r.stderr);
    // The findings are still there, with what is not secret.
    expect(r.stdout + r.stderr).toContain('--password [REDACTED github]');
    expect(r.stdout + r.stderr).toContain("CHECKPOINT-AFTER '[REDACTED github]' has no effect");
    expect(r.stdout + r.stderr).toContain('[REDACTED database-connection-string]');
  });

  it('an INCLUDEd .conv too', async () => {
    const dir = tmpDir({ 'flow.conv': 'INCLUDE part.conv\n', 'part.conv': WORKFLOW });
    const r = await refcatInProcess(['validate', 'flow.conv'], { cwd: dir });
    noSecret(r.stdout + r.stderr);
    expect(r.stderr).toContain('--password [REDACTED github]');
  });

  it("refcat mcp's validate", async () => {
    const dir = tmpDir({ 'flow.conv': WORKFLOW });
    const tool = TOOLS.find((t) => t.name === 'validate')!;
    const r = await runTool(tool, { paths: ['flow.conv'] }, { ctx: testCtx(dir), store: path.join(dir, '.store') });
    noSecret(r.text);
    expect(r.text).toContain('[REDACTED github]');
  });
});
