import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/reference.md is the exact contract: the secret check's flag, field and codes are in it.

const reference = fs.readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8');
const sources = ['src/core/extract/extract-secrets.ts', 'src/core/paging/fd-secrets.ts', 'src/core/extract/extract.ts', 'src/core/secrets/secret-scan.ts']
  .map((f) => fs.readFileSync(new URL(`../../${f}`, import.meta.url), 'utf8'))
  .join('\n');

describe('docs/reference.md documents the secret check', () => {
  it('the --secrets flag in the extraction flag table, with its modes', () => {
    const row = reference.split('\n').find((l) => l.startsWith('| `--secrets MODE`'));
    expect(row).toBeDefined();
    for (const mode of ['redact', 'withhold', 'fail', 'allow']) expect(row).toContain(`\`${mode}\``);
  });

  it('the JSON redacted field and every code the check reports, each a code the code uses', () => {
    expect(reference).toContain('"redacted": [{"line": 2, "rule": "github"}]');
    for (const code of ['secret_redacted', 'secret_withheld', 'secret_found', 'secret_too_large']) {
      expect(reference, code).toContain(`\`${code}\``);
      expect(sources, code).toContain(`'${code}'`);
    }
  });

  it('refcat mcp --secrets', () => {
    expect(reference).toContain('`refcat mcp [--root DIR] [--store DIR] [--secrets MODE]`');
  });
});
