import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as lib from '../../src/index.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// docs/library.md: no library function reads `process`; a relative path is relative to ctx.cwd.
// Each exported function that takes a path runs here with relative paths, with ctx.cwd a folder
// that holds the files and the process's working directory a decoy that holds other ones: a
// function that read process.cwd() (path.resolve with a relative path does) would find the decoy's
// files, and the spy counts every call.
describe('the library resolves relative paths against ctx.cwd, never process.cwd()', () => {
  let work: string;
  let decoy: string;
  let cwdCalls: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    const files = {
      'a.txt': 'work one\nwork two\n',
      'flow.conv': 'MODEL m\nREFCAT @a.txt#L2\nPROMPT p\n',
      'docs/guide.md': 'See @a.txt#L1 and @b.txt#L1.\n',
    };
    work = tmpDir(files);
    // The decoy has every file too, so a lookup in the wrong folder finds the wrong content.
    decoy = tmpDir({ ...files, 'a.txt': 'decoy one\ndecoy two\n', 'b.txt': 'decoy b\n' });
    cwdCalls = vi.spyOn(process, 'cwd').mockReturnValue(decoy);
  });

  afterEach(() => {
    cwdCalls.mockRestore();
  });

  const ctx = () => testCtx(work);
  const lock = JSON.stringify({ externals_dir: 'externals', repos: [{ alias: 'lib', name: 'lib-repo' }] });

  it.each<[string, () => unknown, unknown]>([
    ['extract', () => lib.extract(['@a.txt#L2'], ctx()).results.map((r) => [r.path, r.lines]), [['<work>/a.txt', ['work two']]]],
    ['extractSteps', () => JSON.stringify([...lib.extractSteps(['@a.txt#L2'], ctx())]).includes(`${work}/a.txt`), true],
    ['resolveFiles', () => lib.resolveFiles(lib.parseRef('@a.txt'), ctx(), { aliases: new lib.AliasResolver(ctx()) }).map((f) => f.path), ['<work>/a.txt']],
    ['workflowRefs + extractBatches', () => {
      const c = ctx();
      const { batches, errors } = lib.workflowRefs('flow.conv', c, new lib.AliasResolver(c));
      const { report, code } = lib.extractBatches(batches, errors, c, { patternBudget: new lib.PatternBudget() });
      return [code, report.results.map((r) => [r.path, r.lines])];
    }, [0, [['<work>/a.txt', ['work two']]]]],
    ['loadConv with options.cwd', () => lib.loadConv('flow.conv', { cwd: work }).path, '<work>/flow.conv'],
    ['validateConv', () => { const v = lib.validateConv('flow.conv', ctx()); return [v.path, v.valid]; }, ['<work>/flow.conv', true]],
    // docs/guide.md names a.txt (in both folders) and b.txt (only in the decoy): one valid, one broken.
    ['verifyRefs', () => { const r = lib.verifyRefs(['docs'], ctx()); return [r.filesScanned, r.valid, r.broken]; }, [1, 1, 1]],
    ['resolveAliases: the workspace.lock.json of ctx.cwd', () => {
      fs.writeFileSync(path.join(work, 'workspace.lock.json'), lock);
      fs.mkdirSync(path.join(work, 'externals', 'lib-repo'), { recursive: true });
      fs.writeFileSync(path.join(decoy, 'workspace.lock.json'), lock.replace('"lib"', '"decoy"'));
      return lib.resolveAliases(ctx()).lookup('lib')?.target;
    }, '<work>/externals/lib-repo'],
  ])('%s', (_name, call, expected) => {
    const result = JSON.parse(JSON.stringify(call() ?? null).split(work).join('<work>'));
    expect(result).toEqual(expected);
    expect(cwdCalls).not.toHaveBeenCalled();
  }); // prettier-ignore

  it('globalAliasFile is under ctx.home (or its SDQCTL_HOME)', () => {
    const c = ctx();
    expect(lib.globalAliasFile(c)).toBe(path.join(c.home, '.sdqctl', 'aliases.yaml'));
    expect(cwdCalls).not.toHaveBeenCalled();
  });

  it('loadConv with a relative path and no cwd says what it needs instead of guessing', () => {
    expect(() => lib.loadConv('flow.conv')).toThrow(new lib.UsageError("loadConv: 'flow.conv' is relative; pass an absolute path or options.cwd"));
    expect(cwdCalls).not.toHaveBeenCalled();
  });

  it('workflowRefs: a workflow that is missing is a RefError that names no CLI flag', () => {
    const c = ctx();
    const call = () => lib.workflowRefs('nope.conv', c, new lib.AliasResolver(c));
    expect(call).toThrow(lib.RefError);
    expect(call).toThrow('Cannot read nope.conv: no such file');
    expect(fs.existsSync(path.join(decoy, 'nope.conv'))).toBe(false);
  });
});
