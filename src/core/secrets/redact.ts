import type { RuleMatch } from './secret-rules.js';

/** One line a finding touched, redacted: its number and the rule that found it. */
export interface Redaction {
  /** 1-based line number. */
  line: number;
  /** The rule's short id (`github`), as in `[REDACTED github]`. */
  rule: string;
}

/** Where a line was cut: the columns [from, to) of the line as read, replaced by the marker of `rule`. */
export interface RedactedSpan {
  /** 1-based line number. */
  line: number;
  from: number;
  to: number;
  rule: string;
}

/** One finding: the lines it spans and what it is; never the value. */
export interface SecretFinding {
  rule: string;
  /** What was found, for messages: `a GitHub token`. */
  kind: string;
  /** 1-based first and last line. */
  line: number;
  endLine: number;
}

/** A text's lines as refcat reads them (docs/reference.md#reading-files): terminators dropped, a final one starts no line. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.endsWith('\r') && (i < lines.length - 1 || text.endsWith('\n'))) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** `lines` (redacted, without terminators) with `text`'s own terminators back after each. */
export function withTerminators(text: string, lines: readonly string[]): string {
  let out = '';
  let at = 0;
  for (const line of lines) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) return out + line;
    const crlf = nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
    out += line + crlf;
    at = nl + 1;
  }
  return out;
}

/** How every marker starts. */
const MARKER_START = '[REDACTED ';

/** The marker that stands for a secret's characters. */
export function marker(rule: string): string {
  return `${MARKER_START}${rule}]`;
}

/**
 * `text`'s lines with each part of a line that a match covers replaced by `[REDACTED <rule>]`:
 * every line keeps its place, and every character no match covers stays as it was
 * (docs/refs.md#secrets). Overlapping matches on a line become one marker, named by the first.
 */
export function redactLines(text: string, matches: readonly RuleMatch[]): { lines: string[]; redactions: Redaction[]; findings: SecretFinding[]; spans: RedactedSpan[] } {
  const lines = linesOf(text);
  const starts: number[] = new Array(lines.length);
  for (let i = 0, at = 0; i < lines.length; i++) {
    starts[i] = at;
    at = text.indexOf('\n', at) + 1;
  }
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const cuts = new Map<number, { from: number; to: number; rule: string }[]>();
  const findings: SecretFinding[] = [];
  for (const m of matches) {
    const first = lineAt(m.start);
    const last = lineAt(Math.max(m.start, m.end - 1));
    let touched = false;
    for (let i = first; i <= last; i++) {
      const from = Math.max(m.start - starts[i]!, 0);
      const to = Math.min(m.end - starts[i]!, lines[i]!.length);
      if (from >= to) continue;
      touched = true;
      const list = cuts.get(i) ?? [];
      list.push({ from, to, rule: m.rule });
      cuts.set(i, list);
    }
    if (touched) findings.push({ rule: m.rule, kind: kindOf(m), line: first + 1, endLine: last + 1 });
  }
  const redactions: Redaction[] = [];
  const spans: RedactedSpan[] = [];
  for (const i of [...cuts.keys()].sort((a, b) => a - b)) {
    const list = cuts.get(i)!.sort((a, b) => a.from - b.from || b.to - a.to);
    const merged: { from: number; to: number; rule: string }[] = [];
    for (const c of list) {
      const last = merged[merged.length - 1];
      if (last && c.from <= last.to) last.to = Math.max(last.to, c.to);
      else merged.push({ ...c });
    }
    let line = lines[i]!;
    for (let k = merged.length - 1; k >= 0; k--) {
      const c = merged[k]!;
      line = line.slice(0, c.from) + marker(c.rule) + line.slice(c.to);
    }
    lines[i] = line;
    for (const c of merged) spans.push({ line: i + 1, ...c });
    for (const rule of new Set(merged.map((c) => c.rule))) redactions.push({ line: i + 1, rule });
  }
  return { lines, redactions, findings, spans };
}

/** What each message of the preset's rules found, for warnings (`redacted a GitHub token at ...`). */
const KINDS: Readonly<Record<string, string>> = {
  AWSSecretAccessKey: 'an AWS secret access key',
  AWSAccessKeyID: 'an AWS access key ID',
  AWSAccountID: 'an AWS account ID',
  PrivateKeyJSON: "a GCP service account's private key",
  PrivateKeyP12: "a GCP service account's private key",
  PackageJSON_xOauthToken: 'a GitHub token',
  Npmrc_authToken: 'an npm auth token',
  NPM_ACCESS_TOKEN: 'an npm access token',
  SLACK_TOKEN: 'a Slack token',
  IncomingWebhook: 'a Slack webhook URL',
  BasicAuth: 'a basic auth password',
  OPENAI_TOKEN: 'an OpenAI API key',
  ANTHROPIC_API_KEY: 'an Anthropic API key',
  GROQ_API_KEY: 'a Groq API key',
  HUGGINGFACE_USER_ACCESS_TOKEN: 'a Hugging Face token',
  LINEAR_API_TOKEN: 'a Linear API key',
  NOTION_INTEGRATION_TOKEN: 'a Notion token',
  PrivateKey: 'a private key',
  SENDGRID_KEY: 'a SendGrid API key',
  SHOPIFY_KEY: 'a Shopify token',
  GITHUB_TOKEN: 'a GitHub token',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'a GitLab token',
  GRAFANA_CLOUD_API_TOKEN: 'a Grafana Cloud token',
  GRAFANA_SERVICE_ACCOUNT_TOKEN: 'a Grafana service account token',
  OPS_TOKEN: 'a 1Password service account token',
  MongoDBConnection: 'a MongoDB password',
  MySQLConnection: 'a MySQL password',
  PostgreSQLConnection: 'a PostgreSQL password',
  HASHICORP_VAULT_SERVICE_TOKEN: 'a HashiCorp Vault token',
  HASHICORP_VAULT_BATCH_TOKEN: 'a HashiCorp Vault token',
  HASHICORP_VAULT_RECOVERY_TOKEN: 'a HashiCorp Vault token',
  VERCEL_PERSONAL_ACCESS_TOKEN: 'a Vercel token',
  VERCEL_INTEGRATION_TOKEN: 'a Vercel token',
  VERCEL_APP_ACCESS_TOKEN: 'a Vercel token',
  VERCEL_APP_REFRESH_TOKEN: 'a Vercel token',
  VERCEL_AI_GATEWAY_API_KEY: 'a Vercel API key',
  DATABRICKS_PERSONAL_ACCESS_TOKEN: 'a Databricks token',
  DOCKER_PERSONAL_ACCESS_TOKEN: 'a Docker token',
  FIGMA_PERSONAL_ACCESS_TOKEN: 'a Figma token',
};

function kindOf(m: RuleMatch): string {
  return KINDS[m.messageId] ?? `a secret (${m.rule})`;
}
