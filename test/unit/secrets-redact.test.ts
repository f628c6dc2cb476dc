import { describe, expect, it } from 'vitest';
import { linesOf } from '../../src/core/secrets/redact.js';
import { scanText } from '../../src/core/secrets/secret-scan.js';
import { fakeSecrets, pieces } from '../helpers/fake-secrets.js';

const fake = (rule: string, file?: string) => fakeSecrets().find((s) => s.rule === rule && (file === undefined || s.file === file))!;

describe('redaction keeps every line and every byte but the secret (docs/refs.md#secrets)', () => {
  it('each rule: its value is gone, the lines around it are as they were', () => {
    for (const s of fakeSecrets()) {
      // gcp reads a whole JSON file: nothing around it.
      const text = s.rule === 'gcp' ? `${s.text}\n` : `before\n${s.text}\nafter\n`;
      const found = scanText(text, s.file);
      expect(found, `${s.rule} in ${s.file}`).not.toBeNull();
      const out = found!.lines.join('\n');
      expect(out).not.toContain(s.value);
      expect(found!.lines.length).toBe(linesOf(text).length);
      // Where two rules' matches overlap (basicauth and npm on a package.json URL), the first names the marker.
      expect(out).toMatch(/\[REDACTED [a-z0-9-]+\]/);
      if (s.rule !== 'gcp') {
        // gcp's finding is the whole file; every other rule keeps the lines it did not touch.
        expect(found!.lines[0]).toBe('before');
        expect(found!.lines.at(-1)).toBe('after');
      }
      expect(found!.findings.map((f) => f.rule)).toContain(s.rule);
    }
  });

  it('a five-line private key stays five lines, each redacted', () => {
    const s = fake('privatekey');
    const found = scanText(`a\n${s.text}\nb\n`, s.file)!;
    expect(found.lines).toEqual(['a', ...Array(5).fill('[REDACTED privatekey]'), 'b']);
    expect(found.findings).toEqual([{ rule: 'privatekey', kind: 'a private key', line: 2, endLine: 6 }]);
    expect(found.redactions.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
  });

  it('only the secret\'s characters go: the code around it on the line stays, CRLF lines too', () => {
    const s = fake('github', 'src/config.ts');
    const found = scanText(`x\r\n${s.text}\r\ny`, s.file)!;
    expect(found.lines).toEqual(['x', 'export const token = "[REDACTED github]";', 'y']);
  });

  it.each([
    ['deploy.sh', 'export AWS_SECRET_ACCESS_KEY="[REDACTED aws]"'],
    ['aws.json', '{"AccessKeyId": "x", "SecretAccessKey": "[REDACTED aws]"}'],
    ['credentials.ini', 'aws_secret_access_key = [REDACTED aws]'],
    ['c.ini', 'aws_secret_access_key=[REDACTED aws]'],
    ['.npmrc', '//registry.npmjs.org/:_authToken=[REDACTED npm]'],
  ])('a rule that reports from the key\'s name (%s): the name, its connector and quotes stay, and it reads the same redacted again', (file, line) => {
    const s = fakeSecrets().find((f) => f.file === file)!;
    const found = scanText(`x\n${s.text}\ny\n`, s.file)!;
    expect(found.lines.at(-2)).toBe(line);
    const again = scanText(found.lines.join('\n'), s.file);
    expect(again?.lines ?? found.lines).toEqual(found.lines);
  });

  it('two secrets on one line: two markers', () => {
    const a = fake('github', 'src/config.ts').value;
    const b = fake('slack', 'notify.py').value;
    const found = scanText(`t = ["${a}", "${b}"]\n`, 'x.py')!;
    expect(found.lines).toEqual(['t = ["[REDACTED github]", "[REDACTED slack]"]']);
    expect(found.findings.map((f) => f.rule)).toEqual(['github', 'slack']);
  });

  it('a `secretlint-disable-line` comment keeps its line as it is, as secretlint does', () => {
    const s = fake('github', 'src/config.ts');
    expect(scanText(`${s.text} // secretlint-disable-line\n`, s.file)).toBeNull();
  });

  it('clean text: nothing found', () => {
    expect(scanText('const url = "https://example.com";\n', 'a.ts')).toBeNull();
  });
});

describe('a redaction covers the whole secret, whatever range its rule reports', () => {
  it('each rule in each format: no 8 characters of its secret in a row are left', () => {
    for (const s of fakeSecrets()) {
      const text = s.rule === 'gcp' ? `${s.text}\n` : `before\n${s.text}\nafter\n`;
      const out = scanText(text, s.file)!.lines.join('\n');
      for (const piece of pieces(s.secret)) expect(out, `${s.rule} in ${s.file}: ${out}`).not.toContain(piece);
    }
  });

  it('an AWS key after a long gap, and a short x-oauth-basic token, go whole', () => {
    const key = fake('aws').value;
    const gap = scanText(`aws_secret_access_key${' '.repeat(40)}= ${key}\n`, 'c.ini')!.lines.join('\n');
    for (const piece of pieces(key)) expect(gap).not.toContain(piece);
    // Put together here, so that this file holds no credential (secrets-false-positives.test.ts).
    const short = scanText('{"repository": "https://abc12:' + 'x-oauth-basic@github.com/o/r"}\n', 'package.json')!.lines.join('\n');
    expect(short).not.toContain('abc12');
  });
});
