import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretScanner } from '../../src/core/secrets/secret-scan.js';
import { anySecret } from '../helpers/fake-secrets.js';

// An outline finds a file's secrets on the text it read for its table (SecretScanner.text()),
// not on a read of its own (SecretScanner.file()): the verdict must be the same, byte for byte.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-text-verdict-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const piece = fc.oneof(
  fc.constantFrom('const a = 1;', '  return x;', '', '// note', 'key: value', 'é ü \u00a0', 'token = "', '"', '\t'),
  anySecret.map((s) => s.text),
);
const fileText = fc
  .tuple(fc.array(piece, { maxLength: 10 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), fc.boolean())
  .map(([lines, eol, bom, lastEol]) => (bom ? '\ufeff' : '') + lines.join(eol) + (lastEol ? eol : ''));
const name = fc.constantFrom('src/x.ts', 'config.json', '.npmrc', 'deploy.sh');

describe('a secret verdict found on a file read whole equals the one found by reading the file', () => {
  it('for any text: byte-order mark or not, CRLF or LF, with made-up credentials of every rule', () => {
    let n = 0;
    fc.assert(
      fc.property(fileText, name, (text, base) => {
        const file = path.join(dir, `${n++}-${base.replace(/\//g, '_')}`);
        fs.writeFileSync(file, text);
        const read = new SecretScanner('redact').file(file, base);
        const given = new SecretScanner('redact').text(file, base, fs.readFileSync(file, 'utf8'));
        expect(given).toEqual(read);
      }),
      { numRuns: 150 },
    );
  });

  it('finds a credential on the text given (the case the property must not pass vacuously)', () => {
    const secret = fc.sample(anySecret, { numRuns: 1, seed: 3 })[0]!;
    const file = path.join(dir, 'one.ts');
    const text = `const a = 1;\nconst t = "${secret.text}";\n`;
    fs.writeFileSync(file, text);
    const given = new SecretScanner('redact').text(file, 'one.ts', text);
    expect(given && 'findings' in given ? given.findings.length : 0).toBeGreaterThan(0);
    expect(given).toEqual(new SecretScanner('redact').file(file, 'one.ts'));
  });

  it('is not looked for with --secrets allow, nor in a file .secretlintignore names', () => {
    const file = path.join(dir, 'ignored.ts');
    fs.writeFileSync(file, 'x');
    expect(new SecretScanner('allow').text(file, 'ignored.ts', 'x')).toBeNull();
    fs.writeFileSync(path.join(dir, '.secretlintignore'), 'ignored.ts\n');
    const secret = fc.sample(anySecret, { numRuns: 1, seed: 5 })[0]!;
    expect(new SecretScanner('redact', dir).text(file, 'ignored.ts', secret.text)).toBeNull();
  });
});
