import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// docs/reference.md#aliases: a text report says the known aliases once, with the first unknown
// alias; each later one is its first line (with its did-you-mean). JSON and GitHub annotations
// keep every line.

const LOCK = JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }, { alias: 'loop', name: 'LoopWorkspace' }] });
const KNOWN = 'Known aliases: LoopWorkspace, Trio, loop, trio (workspace.lock.json)';
const DEFINE = 'Define in ~/.sdqctl/aliases.yaml or use ALIAS directive';
const OR = 'Or: --alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)';

function workspace(files: Record<string, string> = {}): string {
  return tmpDir({ 'workspace.lock.json': LOCK, 'externals/Trio/a.js': 'a\n', ...files });
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('unknown aliases: the known ones are said once per run', () => {
  it('refcat REFS: the first error in full, the others their first line and the Define in hint', async () => {
    const r = await refcatInProcess(['tiro:a.js', 'lop:b.js', 'trio:a.js', 'zzz:c.js'], { cwd: workspace() });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "Error: Unknown REFCAT alias: 'tiro' in tiro:a.js (did you mean trio?)",
        `  ${KNOWN}`,
        `  ${DEFINE}`,
        `  ${OR}`,
        "Error: Unknown REFCAT alias: 'lop' in lop:b.js (did you mean loop?)",
        `  ${DEFINE}`,
        "Error: Unknown REFCAT alias: 'zzz' in zzz:c.js",
        `  ${DEFINE}`,
        '',
      ].join('\n'),
    );
  });

  it('one unknown alias still says everything', async () => {
    const r = await refcatInProcess(['tiro:a.js'], { cwd: workspace() });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(["Error: Unknown REFCAT alias: 'tiro' in tiro:a.js (did you mean trio?)", `  ${KNOWN}`, `  ${DEFINE}`, `  ${OR}`, ''].join('\n'));
  });

  it('validate: once across the files of the run; a workflow with its own ALIAS has its own list, said too', async () => {
    const dir = workspace({
      'a.conv': 'REFCAT tiro:a.js\nREFCAT lop:b.js\nPROMPT go\n',
      'b.conv': 'REFCAT zzz:c.js\nPROMPT go\n',
      'c.conv': 'ALIAS mine=.\nREFCAT tiro:a.js\nPROMPT go\n',
    });
    const r = await refcatInProcess(['validate', 'a.conv', 'b.conv', 'c.conv'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "Error: Unknown REFCAT alias: 'tiro' in tiro:a.js (did you mean trio?)",
        `  ${KNOWN}`,
        `  ${DEFINE}`,
        `  ${OR}`,
        '  at a.conv:1',
        "Error: Unknown REFCAT alias: 'lop' in lop:b.js (did you mean loop?)",
        `  ${DEFINE}`,
        '  at a.conv:2',
        "Error: Unknown REFCAT alias: 'zzz' in zzz:c.js",
        `  ${DEFINE}`,
        '  at b.conv:1',
        "Error: Unknown REFCAT alias: 'tiro' in tiro:a.js (did you mean trio?)",
        '  Known aliases: mine (ALIAS at c.conv:1); LoopWorkspace, Trio, loop, trio (workspace.lock.json)',
        `  ${DEFINE}`,
        `  ${OR}`,
        '  at c.conv:2',
        '',
      ].join('\n'),
    );
  });

  it('verify refs: the list under the first unknown alias only (also in a lenient workflow\'s warnings)', async () => {
    const dir = workspace({
      'docs/a.md': 'See tiro:a.js#L1 and lop:b.js.\n',
      'docs/b.md': 'And zzz:c.js.\n',
      'docs/len.conv': 'VALIDATION-MODE lenient\nREFCAT tiro:a.js\nPROMPT go\n',
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✗ FAILED: Scanned 3 file(s), found 4 reference(s): 1 valid, 3 broken (1 warning)',
        '  ERROR docs/a.md:1: Broken reference: tiro:a.js#L1',
        "    Unknown REFCAT alias: 'tiro' in tiro:a.js#L1 (did you mean trio?)",
        `    ${KNOWN}`,
        '  ERROR docs/a.md:1: Broken reference: lop:b.js',
        "    Unknown REFCAT alias: 'lop' in lop:b.js (did you mean loop?)",
        '  ERROR docs/b.md:1: Broken reference: zzz:c.js',
        "    Unknown REFCAT alias: 'zzz' in zzz:c.js",
        "  WARNING docs/len.conv:2: Unknown REFCAT alias: 'tiro' in tiro:a.js (did you mean trio?)",
        `    ${DEFINE}`,
        '    Reported as a warning: VALIDATION-MODE lenient',
        '',
      ].join('\n'),
    );
  });

  it('--json and --format github keep the whole error in every entry', async () => {
    const dir = workspace({ 'docs/a.md': 'See tiro:a.js#L1 and lop:b.js.\n' });
    const json = JSON.parse((await refcatInProcess(['verify', 'refs', 'docs', '--json'], { cwd: dir })).stdout) as { errors: { details: string[] }[] };
    expect(json.errors.map((e) => e.details)).toEqual([[KNOWN, DEFINE, OR], [KNOWN, DEFINE, OR]]);
    const github = await refcatInProcess(['verify', 'refs', 'docs', '--format', 'github'], { cwd: dir });
    expect(count(github.stdout, KNOWN)).toBe(2);
    const extracted = JSON.parse((await refcatInProcess(['tiro:a.js', 'lop:b.js', '--json'], { cwd: dir })).stdout) as { errors: { details: string[] }[] };
    expect(extracted.errors.map((e) => e.details)).toEqual([[KNOWN, DEFINE, OR], [KNOWN, DEFINE, OR]]);
  });
});
