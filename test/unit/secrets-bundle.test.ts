// The build bundles secretlint into one CommonJS file (bin/bundle-cli.mjs), which the secret check
// loads instead of the packages when it is there (src/core/secrets/secret-rules.ts): the same rules,
// finding the same secrets at the same places, ASCII like every bundle, and the bundled packages'
// licenses kept; the core's profiler and debug log are left out.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/core/secrets/secret-rules.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { REPO } from '../helpers/cli.js';

const require = createRequire(import.meta.url);
const BUNDLE = path.join(REPO, 'dist', 'bin', 'secretlint.cjs');

interface Rule {
  meta: { id: string };
  create(context: unknown, options: unknown): unknown;
}
interface Report {
  message: { messageId: string };
  range: [number, number];
}
interface Secretlint {
  lintSource(args: unknown): Promise<unknown>;
  rules: readonly Rule[];
}

/** Every report of `rules` run by `lintSource` on `content`, as [rule, message, start, end]. */
function reports({ lintSource, rules }: Secretlint, content: string, filePath: string): [string, string, number, number][] {
  const out: [string, string, number, number][] = [];
  const watched = rules.map((rule) => ({
    id: rule.meta.id,
    rule: {
      ...rule,
      create(context: { report(d: Report): void }, options: unknown) {
        const report = (d: Report) => {
          out.push([rule.meta.id, d.message.messageId, ...d.range]);
          context.report(d);
        };
        return rule.create({ ...context, report }, options);
      },
    },
  }));
  const ext = path.extname(filePath);
  const options = { config: { rules: watched }, noPhysicFilePath: true, maskSecrets: true };
  lintSource({ source: { content, filePath, ext, contentType: 'text' }, options }).catch(() => undefined);
  return out;
}

const bundled = (): Secretlint => require(BUNDLE) as Secretlint;
const packages = (): Secretlint => ({
  lintSource: (require('@secretlint/core') as Secretlint).lintSource,
  rules: (require('@secretlint/secretlint-rule-preset-recommend') as { rules: readonly Rule[] }).rules,
});

describe('secretlint as the build bundles it', () => {
  it('holds the preset\'s rules, in its order', () => {
    expect(bundled().rules.map((r) => r.meta.id)).toEqual(packages().rules.map((r) => r.meta.id));
    expect(bundled().rules.length).toBeGreaterThan(20);
  });

  it('finds every made-up credential where the packages find it', () => {
    let found = 0;
    for (const fake of fakeSecrets(11)) {
      const text = `line one\n${fake.text}\nline three\n`;
      const ours = reports(bundled(), text, fake.file);
      expect(ours, fake.rule).toEqual(reports(packages(), text, fake.file));
      if (ours.length > 0) found++;
    }
    expect(found).toBe(fakeSecrets(11).length);
  });

  it('is the one the secret check loads, when the build made it', () => {
    // This file's copy of the check has not loaded secretlint yet; the bundle is loaded afresh.
    delete require.cache[BUNDLE];
    const fake = fakeSecrets(3).find((f) => f.rule === 'github')!;
    expect(lintText(fake.text, fake.file).map((m) => m.rule)).toEqual(['github']);
    expect(Object.keys(require.cache)).toContain(BUNDLE);
  });

  it('is ASCII, and ends with the name, version and license of each package in it', () => {
    const text = fs.readFileSync(BUNDLE, 'latin1');
    expect(/[^\x00-\x7f]/.test(text)).toBe(false);
    const licenses = text.slice(text.lastIndexOf('The packages bundled in this file'));
    for (const name of ['@secretlint/core', '@secretlint/secretlint-rule-preset-recommend']) {
      const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve(`${name}/package.json`)), 'package.json'), 'utf8'));
      expect(licenses).toContain(`${name} ${pkg.version} (MIT)`);
    }
    expect(licenses).toContain('Permission is hereby granted');
  });

  it('leaves out the profiler and debug: nothing watches the performance timeline or logs', () => {
    const text = fs.readFileSync(BUNDLE, 'utf8');
    expect(text).not.toContain('PerformanceObserver');
    expect(text).not.toContain('process.env.DEBUG');
    expect(text).not.toMatch(/^(@secretlint\/profiler|debug|ms) \d/m);
  });
});
