import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { RefcatError } from '../../shared/errors.js';

/**
 * secretlint's recommended preset, run by @secretlint/core, synchronously: extraction reads and
 * selects in one synchronous pass, and so must redact. The core runs every rule's `file` handler
 * within lintSource() itself (only its final clean-up waits for a promise), so each rule is handed
 * a context whose `report` and `ignore` are also noted here; the ignores (`secretlint-disable`
 * comments) are applied as the core applies them. Loaded on first use, when the prefilter lets a
 * text through, from the build's bundle of it when there is one (docs/design/secrets.md).
 */

/** One report of a rule: where, which rule and message; never the matched text. */
export interface RuleMatch {
  /** The rule's id without `@secretlint/secretlint-rule-` (`github`). */
  rule: string;
  /** The rule's message id (`GITHUB_TOKEN`): what kind of secret. */
  messageId: string;
  /** UTF-16 offsets into the text: [start, end). */
  start: number;
  end: number;
}

type Range = readonly [number, number];
interface ReportDescriptor {
  message: { messageId: string };
  range: Range;
}
interface IgnoreDescriptor {
  range: Range;
  targetRuleId?: string;
}
interface RuleContext {
  report(d: ReportDescriptor): void;
  ignore(d: IgnoreDescriptor): void;
}
interface RuleCreator {
  meta: { id: string };
  create(context: RuleContext, options: unknown): unknown;
}
interface Secretlint {
  lintSource(args: {
    source: { content: string; filePath: string; ext: string; contentType: 'text' };
    options: { config: { rules: { id: string; rule: RuleCreator }[] }; noPhysicFilePath: boolean; maskSecrets: boolean };
  }): Promise<unknown>;
}

const RULE_PREFIX = '@secretlint/secretlint-rule-';

interface Loaded {
  core: Secretlint;
  rules: readonly RuleCreator[];
}
interface Profiler {
  secretLintProfiler: { mark: (m: unknown) => void };
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  try {
    const { core, rules, profiler } = fromBundle(require) ?? fromPackages(require);
    // The core marks the start and end of every rule on every text in the process's performance
    // timeline, and its profiler keeps each mark and matches every new one against all it kept:
    // memory and time that grow with every file scanned. Its marks are turned off.
    profiler.secretLintProfiler.mark = () => undefined;
    loaded = { core, rules };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ERR_REQUIRE_ESM' ? 'this Node cannot require() an ES module (Node 20.19 or later can)' : (err as Error).message;
    throw new RefcatError(`Cannot load the secret scanner (secretlint): ${why}`, { code: 'secret_scanner', exitCode: 1 });
  }
  return loaded;
}

/**
 * secretlint as the build bundled it (`dist/bin/secretlint.cjs`, bin/bundle-cli.mjs): one
 * CommonJS file, which loads in a third of the time the packages take. Undefined when there is no
 * build (the sources run as they are): the packages are loaded instead, the same code.
 */
function fromBundle(require: NodeJS.Require): (Loaded & { profiler: Profiler }) | undefined {
  let file: string;
  try {
    file = path.join(path.dirname(require.resolve('refcat/package.json')), 'dist', 'bin', 'secretlint.cjs');
  } catch {
    return undefined;
  }
  if (!fs.existsSync(file)) return undefined;
  const bundle = require(file) as { lintSource: Secretlint['lintSource']; rules: readonly RuleCreator[] } & Profiler;
  return { core: bundle, rules: bundle.rules, profiler: bundle };
}

/** secretlint's packages: ES modules, which Node loads with require() from 20.19 on. */
function fromPackages(require: NodeJS.Require): Loaded & { profiler: Profiler } {
  const core = require('@secretlint/core') as Secretlint;
  const profiler = createRequire(require.resolve('@secretlint/core'))('@secretlint/profiler') as Profiler;
  const preset = require('@secretlint/secretlint-rule-preset-recommend') as { rules: readonly RuleCreator[] };
  return { core, rules: preset.rules, profiler };
}

/**
 * Every report of the preset's rules on `content` (a file's text, or piped text), in text order.
 * `filePath` decides the rules that look at names (`.npmrc`, `package.json`, gcp's `.json`); the file
 * itself is never read.
 */
export function lintText(content: string, filePath: string): RuleMatch[] {
  const { core, rules } = load();
  const reports: { ruleId: string; messageId: string; range: Range }[] = [];
  const ignores: IgnoreDescriptor[] = [];
  const watched = rules.map((rule) => ({
    id: rule.meta.id,
    rule: {
      ...rule,
      create(context: RuleContext, options: unknown) {
        const noted: RuleContext = {
          ...context,
          report(d) {
            reports.push({ ruleId: rule.meta.id, messageId: d.message.messageId, range: d.range });
            context.report(d);
          },
          ignore(d) {
            ignores.push({ range: d.range, targetRuleId: d.targetRuleId });
            context.ignore(d);
          },
        };
        return rule.create(noted, options);
      },
    },
  }));
  const ext = /(\.[^./\\]*)$/.exec(filePath)?.[1] ?? '';
  const done = core.lintSource({
    source: { content, filePath, ext, contentType: 'text' },
    options: { config: { rules: watched }, noPhysicFilePath: true, maskSecrets: true },
  });
  // The reports are in: the core's own clean-up (messages that hold the values) is not wanted.
  done.catch(() => undefined);
  const kept = reports.filter((r) => !ignores.some((i) => ignoredBy(r.ruleId, r.range, i)));
  const seen = new Set<string>();
  const matches: RuleMatch[] = [];
  for (const r of kept) {
    const key = `${r.ruleId} ${r.range[0]} ${r.range[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const [start, end] = wholeSecret(content, r.range);
    matches.push({ rule: r.ruleId.startsWith(RULE_PREFIX) ? r.ruleId.slice(RULE_PREFIX.length) : r.ruleId, messageId: r.messageId, start, end });
  }
  return matches.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** A character a token (key, password, base64, UUID) is made of. */
const TOKEN = /[A-Za-z0-9+/=_.~-]/;
/** A range that stops at a key's name: its connector and the value after it (`aws_secret_access_key = ...`). */
const VALUE_AFTER = /^["']?[ \t]*(?::|=>|=)[ \t]*["']?[A-Za-z0-9+/=_.~-]+/;

/**
 * The key's name and connector at the start of the two rules' ranges that start at them: AWS's
 * secret access key (`AWS_SECRET_ACCESS_KEY="`, `"SecretAccessKey": "`) and npm's `_authToken=`.
 * Only these names: a looser one (any word and `=`) took a base64 token's own `=` for a connector.
 * A value already redacted (`_authToken=[REDACTED npm]`, a cited copy) is redacted the same again.
 */
const NAME_BEFORE = /^["']?(?:[\w.-]*(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)|_authToken)["']?[ \t]*(?::|=>|=)[ \t]*["']?(?=[A-Za-z0-9+/_.~-]|\[REDACTED )/;
const REDACTED = '[REDACTED ';

/**
 * A report's range made the whole secret, and only it. Some rules report the start of their whole
 * match with the length of the secret alone (AWS's secret key, npm's `_authToken=` and
 * `x-oauth-basic`), so the range ends inside the secret, or even before it: a redaction must never
 * leave a secret's tail printed (docs/design/secrets.md). So a range that ends inside a token (or a
 * URL's `://`) runs on to the token's end, and one that ends at a key's name takes the value after
 * it. A range that starts at a key's name starts at its value: the name and its quotes stay.
 */
export function wholeSecret(text: string, [start, end]: Range): [number, number] {
  const inToken = (i: number) => i >= 0 && i < text.length && (TOKEN.test(text[i]!) || text[i] === ':');
  while (end > start && end < text.length && inToken(end - 1) && inToken(end)) end++;
  const rest = VALUE_AFTER.exec(text.slice(end, end + 1024));
  if (rest) {
    end += rest[0].length;
    while (end < text.length && TOKEN.test(text[end]!)) end++;
  }
  const name = NAME_BEFORE.exec(text.slice(start, end + REDACTED.length));
  if (name && start + name[0].length < end) {
    start += name[0].length;
    // Redacted already: the whole `[REDACTED <rule>]`, so that it reads the same again.
    if (text.startsWith(REDACTED, start)) end = Math.max(end, text.indexOf(']', start) + 1);
  }
  return [start, end];
}

/** secretlint's own test: a report wholly inside an ignored range, for its rule or for all (`*`). */
function ignoredBy(ruleId: string, [start, end]: Range, ignore: IgnoreDescriptor): boolean {
  const [from, to] = ignore.range;
  const inside = from <= start && start <= to && from <= end && end <= to;
  if (!inside) return false;
  return !ignore.targetRuleId || ignore.targetRuleId === '*' || ignore.targetRuleId === ruleId;
}
