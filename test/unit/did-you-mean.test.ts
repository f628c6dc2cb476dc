import { describe, expect, it } from 'vitest';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

describe('a misspelled command', () => {
  it.each([
    ['valdate', 'validate'],
    ['verfy', 'verify'],
    ['aliasses', 'aliases'],
  ])('%s: exit 2 with did you mean %s', async (word, meant) => {
    const r = await refcatInProcess([word, 'x.conv'], { cwd: tmpDir() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: Unknown command '${word}' (did you mean ${meant}?)\n` });
  });

  it.each([
    ['help valdate', "Error: Unknown command 'valdate' (did you mean validate?): 'refcat --help' lists the commands, and extracting refs is the main job, without one\n"],
    ['help nosuch', "Error: Unknown command 'nosuch': 'refcat --help' lists the commands, and extracting refs is the main job, without one\n"],
  ])('refcat %s: exit 2, saying the command is unknown', async (args, stderr) => {
    const r = await refcatInProcess(args.split(' '), { cwd: tmpDir() });
    expect(r).toEqual({ code: 2, stdout: '', stderr });
  });

  it.each([
    ['help', 'Usage: refcat [options] <refs...>'],
    ['help help', 'Usage: refcat [options] <refs...>'],
    ['help verify refs', 'Usage: refcat verify refs [options] [paths...]'],
    ['help fd read', 'Usage: refcat fd read [options] [source]'],
  ])('refcat %s: the help of that (sub)command on stdout, exit 0', async (args, usage) => {
    const r = await refcatInProcess(args.split(' '), { cwd: tmpDir() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^${usage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($| )`));
  });

  it('refcat help validate still helps', async () => {
    const r = await refcatInProcess(['help', 'validate'], { cwd: tmpDir() });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/validate/);
  });

  it.each([
    ['a file of that name exists', { valdate: 'v\n' }, ['valdate']],
    ['the word has a dot', { 'valdate.txt': 'v\n' }, ['valdate.txt']],
    ['the word is far from every command', { 'notes': 'n\n' }, ['notes']],
  ])('is read as a ref when %s', async (_why, files, args) => {
    const r = await refcatInProcess(['-q', ...args], { cwd: tmpDir(files) });
    expect(r.code).toBe(0);
  });
});
