import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldSecret } from '../../src/core/secrets/prefilter.js';
import { lintText } from '../../src/core/secrets/secret-rules.js';
import { anySecret, fakeSecrets, PRESET_RULES } from '../helpers/fake-secrets.js';

const NAMES = ['src/x.ts', 'package.json', '.npmrc', 'creds.json', 'README', 'deploy.sh'];

/** The prefilter on the text, and on its UTF-8 bytes read as latin1 (how files are prefiltered). */
function passes(text: string, name: string): boolean {
  const json = name.endsWith('.json');
  return mayHoldSecret(text, json) && mayHoldSecret(Buffer.from(text).toString('latin1'), json);
}

/** Pieces of credentials and their surroundings, to make near misses of every rule. */
const FRAGMENTS = [
  'ghp_', 'github_pat_', 'sk-ant-api03-', 'sk-', 'T3BlbkFJ', 'https://', 'http://', 'ftp://', 'postgres://', 'mongodb+srv://',
  'jdbc:mysql://', 'user:', ':pw@', '@', 'xoxb-', 'xapp-1-', 'hooks.slack.com/services/T', 'HOOKS.SLACK.COM/SERVICES/T',
  '-----BEGIN ', 'RSA ', 'PRIVATE KEY-----', '-----END PRIVATE KEY-----', 'MII', 'AWS_SECRET_ACCESS_KEY=', 'secret_access_key: ',
  '_authToken=', 'npm_', 'SG.', 'hvs.', 'hvb.', 'ops_ey', 'dapi', 'dckr_pat_', 'figd_', 'glpat-', 'glc_', 'glsa_', 'gsk_',
  'hf_', 'lin_api_', 'ntn_', 'shpat_', 'vcp_', '"private_key_id": "1", "private_key": "', '\\u0050', 'x-oauth-basic',
  'secretlint-disable-line', 'secretlint-disable', 'secretlint-enable', 'SecretAccessKey', 'secret_accessKey', 'hooks.Slack.COM/', 'dapi0123abcdef',
];
const noiseUnit = fc.constantFrom(...'aAzZ09_-./:@=+ \n\t"\'{}', 'é', '\u00a0', '\u2028', 'ü');
const noise = fc.string({ unit: noiseUnit, maxLength: 12 });
const fragment = fc.constantFrom(...FRAGMENTS);
const bodyRun = fc.string({ unit: fc.constantFrom(...'abcXYZ0189_-+/='), minLength: 8, maxLength: 120 });
/** A credential with a character dropped, doubled or changed: mostly near misses, some still matching. */
const mutated = fc.tuple(anySecret, fc.nat(), fc.constantFrom('drop', 'double', 'swap')).map(([s, at, how]) => {
  const i = at % Math.max(s.text.length, 1);
  if (how === 'drop') return s.text.slice(0, i) + s.text.slice(i + 1);
  if (how === 'double') return s.text.slice(0, i) + s.text[i] + s.text.slice(i);
  return s.text.slice(0, i) + 'é' + s.text.slice(i + 1);
});
const piece = fc.oneof(noise, fragment, bodyRun, mutated, anySecret.map((s) => s.text));
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('the prefilter lets through every text a rule of the preset matches', () => {
  it('each rule finds its made-up credential, and the prefilter lets it through', () => {
    const found = new Set<string>();
    for (const seed of [3, 7, 11]) {
      for (const s of fakeSecrets(seed)) {
        const matches = lintText(s.text, s.file);
        expect(matches.map((m) => m.rule), `${s.rule} in ${s.file}`).toContain(s.rule);
        expect(passes(s.text, s.file), `${s.rule} in ${s.file}`).toBe(true);
        found.add(s.rule);
      }
    }
    expect([...found].sort()).toEqual([...PRESET_RULES].sort());
  });

  it('clean text is not let through', () => {
    expect(mayHoldSecret('const url = "https://example.com/a:b";\nexport function f(a_b: string) {}\n')).toBe(false);
    expect(mayHoldSecret('"\\u00e9"', false)).toBe(false);
    expect(mayHoldSecret('"\\u00e9"', true)).toBe(true);
  });

  it('differential: wherever a rule reports, the prefilter passes (random text, with and without planted credentials)', () => {
    let reported = 0;
    fc.assert(
      fc.property(text, fc.constantFrom(...NAMES), (t, name) => {
        const matches = lintText(t, name);
        if (matches.length > 0) {
          reported++;
          expect(passes(t, name)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: many of the texts held something a rule reported.
    expect(reported).toBeGreaterThan(300);
  });
});
