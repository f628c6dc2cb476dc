// Deterministic docs prose for the bench trees (bench/suites/12-verify-refs.js and
// bench/real-docs-tree.js): each tree has its own seed, so every run writes the same bytes.

export const WORDS = (
  'the a of to and in is that for it as with was on be by this are or from at an which have not ' +
  'sensor glucose pump loop insulin basal bolus profile target range reading value update sync ' +
  'device algorithm treatment carbs schedule upload server client request response field record ' +
  'documentation workflow behaviour mapping between upstream downstream ecosystem alignment gap'
).split(' ');

/** A xorshift random source from `seed`, with `pick` and a `sentence` of 8 to 21 words drawn from it. */
export function prose(seed) {
  let s = seed;
  const rand = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(rand() * 14) }, () => pick(WORDS));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    return words.join(' ') + '.';
  };
  return { rand, pick, sentence };
}
