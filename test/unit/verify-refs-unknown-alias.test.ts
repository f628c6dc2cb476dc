import { describe, expect, it } from 'vitest';
import { AliasResolver } from '../../src/core/alias/resolve-aliases.js';
import { verifyRefs } from '../../src/core/verify-refs/verify-refs.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir, writeFiles } from '../helpers/tmp.js';

// docs/reference.md#what-verify-refs-counts-as-a-ref: when `word:file.ext` is a ref to an unknown
// alias (reported) and when it is prose (not a ref at all).
const LOCK = JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }, { alias: 'loop', name: 'LoopWorkspace' }] });
const GLOBAL = 'aliases:\n  trio: /t\n  loop: /l\n';

type Setup = 'nothing' | 'lockfile' | 'global file' | '--alias';

/** The refs verify refs finds in a doc holding `line`, and the broken ones' aliases. */
async function check(line: string, setup: Setup) {
  const root = tmpDir({
    'docs/a.md': `# Notes\n\n${line}\n`,
    ...(setup === 'lockfile' ? { 'workspace.lock.json': LOCK } : {}),
  });
  const ctx = testCtx(root);
  if (setup === 'global file') writeFiles(ctx.home, { '.sdqctl/aliases.yaml': GLOBAL });
  const explicit = setup === '--alias' ? [{ name: 'trio', path: '/t', base: root, origin: '--alias' }] : [];
  const report = await verifyRefs(['docs'], ctx, { aliases: new AliasResolver(ctx, { explicit }) });
  return { found: report.refsFound, unknown: report.errors.filter((e) => e.code === 'unknown_alias').map((e) => e.ref) };
}

describe('verify refs: an unknown alias is reported where it can only be a typo, prose elsewhere', () => {
  const ALL: Setup[] = ['nothing', 'lockfile', 'global file', '--alias'];
  it.each<[string, Setup[], Setup[]]>([
    // [line, setups where it is reported as an unknown alias, setups where it is not a ref at all]
    ['with a folder: `old:lib/server.js`', ALL, []],
    ['with a line selector: `note:setup.txt#L3`', ALL, []],
    ['with a pattern selector: `note:setup.txt#/main/`', ALL, []],
    ['a near miss of a defined alias: `tiro:README.md`', ['lockfile', 'global file', '--alias'], ['nothing']],
    ['a near miss, swapped letters: `lopo:README.md`', ['lockfile', 'global file', '--alias'], ['nothing']],
    ['not a near miss, only a global file: `zzz:README.md`', ['lockfile', '--alias'], ['nothing', 'global file']],
    ['no folder, no selector, no near miss: `note:setup.txt`', ['lockfile', '--alias'], ['nothing', 'global file']],
    ['a heading anchor is not a selector: `note:setup.md#usage`', ['lockfile', '--alias'], ['nothing', 'global file']],
  ])('%s', async (line, reported, prose) => {
    for (const setup of ALL) {
      const r = await check(line, setup);
      if (reported.includes(setup)) expect(r, setup).toEqual({ found: 1, unknown: [expect.any(String)] });
      if (prose.includes(setup)) expect(r, setup).toEqual({ found: 0, unknown: [] });
    }
  });

  it.each([
    ['`alias:example/path.md`'],
    ['`project:docs/x.md#L2`'],
    ['`extract:src/app.py#/main/`'],
    ['`@alias:example/path.md`'],
  ])('the placeholder %s is never a ref', async (line) => {
    for (const setup of ['nothing', 'lockfile', 'global file', '--alias'] as Setup[]) expect(await check(line, setup), setup).toEqual({ found: 0, unknown: [] });
  });

  it('a placeholder word defined as an alias is an alias', async () => {
    const root = tmpDir({ 'docs/a.md': 'see `project:src/x.py`\n', 'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'project', name: 'P' }] }), 'externals/P/README.md': '# P\n' });
    const report = await verifyRefs(['docs'], testCtx(root));
    expect(report.refsFound).toBe(1);
    expect(report.errors[0]).toMatchObject({ code: 'not_found', ref: 'project:src/x.py' });
  });
});

describe('verify refs: a docs folder with one mistyped alias among good ones', () => {
  it('fails (exit 1) and the report offers the right alias and where the aliases come from', async () => {
    const root = tmpDir({
      'workspace.lock.json': LOCK,
      'externals/Trio/README.md': '# Trio\n',
      'externals/LoopWorkspace/Loop/README.md': '# Loop\n',
      'docs/a.md': 'See `trio:README.md` and loop:Loop/README.md#L1.\n',
      'docs/b.md': 'Also tiro:README.md, and key: value.txt is prose.\n',
      'docs/c.md': 'And `loop:Loop/README.md`.\n',
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✗ FAILED: Scanned 3 file(s), found 4 reference(s): 3 valid, 1 broken',
        '  ERROR docs/b.md:1: Broken reference: tiro:README.md',
        "    Unknown REFCAT alias: 'tiro' in tiro:README.md (did you mean trio?)",
        '    Known aliases: LoopWorkspace, Trio, loop, trio (workspace.lock.json)',
        '',
      ].join('\n'),
    );
  });

  it('with a lockfile, note:setup.txt is an unknown alias; without one it is prose', async () => {
    const root = tmpDir({
      'workspace.lock.json': LOCK,
      'externals/Trio/README.md': '# Trio\n',
      'docs/a.md': 'See `trio:README.md`, note:setup.txt is prose without a lockfile only.\n',
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Unknown REFCAT alias: 'note' in note:setup.txt");
    const noLock = tmpDir({ 'docs/a.md': 'note:setup.txt is prose here.\n' });
    expect(await refcatInProcess(['verify', 'refs', 'docs'], { cwd: noLock })).toMatchObject({ code: 0 });
  });
});
