import fc from 'fast-check';

// Globs and names over small alphabets, so that stars, dots, slashes, classes, braces, extglobs and
// escapes meet names they nearly match: for differential tests of glob matching against picomatch.
export const GLOB_PARTS = [
  'a', 'b', '.', '/', '*', '**', '?', '[ab]', '[!a]', '[^.]', '[a-b]', '[', ']', '!', '\\', '\\*', '\\.', '\\/', '\\a',
  '{', '}', ',', '{a,b}', '{,.}', '{a..c}', '(', ')', '|', '@(', '!(', '+(', '*(', '?(', '-', '^', '$', '"', ' ', '+',
  '**/', '/**', './', '[[:alpha:]]', '\n', '\\1', '(?<=a)',
];
const NAME_PARTS = ['a', 'b', 'c', '.', '..', '/', '\n', '\\', '-', '*', '[', ']', '{', ',', '(', '|', '!', ' ', '+', '$'];

const globArb = fc.array(fc.constantFrom(...GLOB_PARTS), { minLength: 1, maxLength: 7 }).map((p) => p.join(''));
const nameArb = fc.array(fc.constantFrom(...NAME_PARTS), { maxLength: 8 }).map((p) => p.join(''));
/** A name made from the glob: some of its characters kept, others replaced or dropped. */
const nearNameArb = (glob: string) =>
  fc.array(fc.constantFrom('keep', 'keep', 'keep', 'drop', ...NAME_PARTS), { minLength: glob.length, maxLength: glob.length }).map((edits) =>
    [...glob].map((ch, i) => (edits[i] === 'keep' ? ch : edits[i] === 'drop' ? '' : edits[i])).join(''),
  );

export const globCaseArb = globArb.chain((glob) => fc.tuple(fc.constant(glob), fc.oneof(nameArb, nearNameArb(glob)), fc.boolean(), fc.boolean()));

// The globs and names of walks and .gitignore files, which are matched segment by segment.
const plainGlobArb = fc
  .array(fc.constantFrom('a', 'b', '.', '*', '?', '/', '**', '**/', '/**', '-', 'é', '{a,b}', '{a,.b}', '{ab,a}', '{,a}', '{a}', '{a..b}', '{a..b,c}', '}'), {
    minLength: 1,
    maxLength: 7,
  })
  .map((p) => p.join(''));
const pathArb = fc
  .array(fc.constantFrom('a', 'b', 'ab', '.a', 'a.b', 'b.', '.', '..', 'é', '.é', '-'), { minLength: 1, maxLength: 5 })
  .map((p) => p.join('/'));
/** A name the glob would match if `**`, `*`, `?` and braces were all it says (dots left to chance). */
const instanceArb = (glob: string) =>
  fc.array(fc.nat(7), { minLength: 24, maxLength: 24 }).map((r) => {
    let k = 0;
    const pick = <T>(xs: T[]) => xs[r[k++ % r.length]! % xs.length]!;
    return glob
      .replace(/\{([^{}]*)\}/g, (_m, body: string) => pick(body.split(',')))
      .replace(/\*\*|\*|\?/g, (m) => (m === '**' ? pick(['a', 'a/b', '.a', 'b/.c', 'a/b/c', '']) : m === '*' ? pick(['', 'a', 'ab', '.', 'b.a']) : pick(['a', '.', 'é'])));
  });
export const plainCaseArb = plainGlobArb.chain((glob) => fc.tuple(fc.constant(glob), fc.oneof(pathArb, nearNameArb(glob), instanceArb(glob)), fc.boolean()));
