import { describe, expect, it } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { verifyRefs } from '../../src/core/verify-refs/verify-refs.js';
import { ConfigError, FdError, RefcatError, RefError, RefParseError, UsageError } from '../../src/shared/errors.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// A broken ref is an expected failure: its error is built without a stack trace (which a docs
// tree with hundreds of broken refs paid for each, unread), and says exactly what it said before.

describe('RefcatError: no stack trace, the same message', () => {
  it.each<[string, () => RefcatError]>([
    ['RefError', () => new RefError('not_found', 'REFCAT ref not found: @x', '@x')],
    ['RefParseError', () => new RefParseError('@x#L0', 'line numbers start at 1')],
    ['UsageError', () => new UsageError('No refs given')],
    ['ConfigError', () => new ConfigError('/w/workspace.lock.json', 'not valid JSON')],
    ['FdError', () => new FdError('not_found', 'fd:9', 'File descriptor fd:9 not found')],
  ])('%s has no frames, and other errors still do', (name, make) => {
    const limit = Error.stackTraceLimit;
    const err = make();
    expect(err.stack).toBe(`${name}: ${err.message}`);
    expect(err).toBeInstanceOf(Error);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('a bug').stack).toMatch(/\n {4}at /);
  });

  const files = {
    'a.py': 'one\ntwo\nthree\n',
    'bin.dat': Buffer.from([0, 1, 2, 0]),
    'sub/x.md': '# x\n',
    'workspace.lock.json': JSON.stringify({ repos: [{ alias: 'trio', name: 'Trio' }] }),
  };
  it.each<[string, { code: string; message: string; details?: string[] }]>([
    ['@missing.py', { code: 'not_found', message: 'REFCAT ref not found: @missing.py', details: ['Searched: {dir}/missing.py'] }],
    ['@a.py#/nothing/', { code: 'pattern_not_found', message: 'Pattern /nothing/ not found in @a.py#/nothing/' }],
    ['@nope/*.py', { code: 'glob_no_match', message: 'Glob matched no files: @nope/*.py' }],
    ['@sub', { code: 'is_directory', message: 'Is a directory: @sub', details: ['A glob reads the files in it: @sub/**'] }],
    ['@bin.dat', { code: 'binary', message: 'Binary file: @bin.dat' }],
    ['@a.py#L0', { code: 'invalid_ref', message: 'Cannot parse ref: @a.py#L0 (line numbers start at 1; L0 is not a line)' }],
    [
      'tiro:a.py',
      {
        code: 'unknown_alias',
        message: "Unknown REFCAT alias: 'tiro' in tiro:a.py (did you mean trio?)",
        details: [
          'Known aliases: Trio, trio (workspace.lock.json)',
          'Define in ~/.sdqctl/aliases.yaml or use ALIAS directive',
          'Or: --alias NAME=PATH, or a workspace.lock.json in this folder or above (see: refcat aliases)',
        ],
      },
    ],
  ])('%s: the message of a broken ref', (ref, expected) => {
    const dir = tmpDir(files);
    const report = extract([ref], testCtx(dir));
    expect(report.errors).toHaveLength(1);
    const got = report.errors[0]!;
    expect({ code: got.code, message: got.message, details: got.details }).toEqual({
      ...expected,
      details: (expected.details ?? []).map((d) => d.replaceAll('{dir}', dir)),
    });
  });

  it('verify refs reports the same messages, as data', async () => {
    const dir = tmpDir({ ...files, 'doc.md': 'See @missing.py and @a.py#/nothing/ and tiro:a.py.\n' });
    const report = await verifyRefs(['doc.md'], testCtx(dir));
    expect(report.errors.map((e) => [e.code, e.message])).toEqual([
      ['not_found', 'REFCAT ref not found: @missing.py'],
      ['pattern_not_found', 'Pattern /nothing/ not found in @a.py#/nothing/'],
      ['unknown_alias', "Unknown REFCAT alias: 'tiro' in tiro:a.py (did you mean trio?)"],
    ]);
  });
});
