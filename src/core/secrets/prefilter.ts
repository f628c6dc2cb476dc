/**
 * The prefilter: one regular expression that matches wherever any rule of secretlint's
 * recommended preset could match, so text it does not match never runs the rules
 * (docs/design/secrets.md#the-prefilter). Each part is a piece that rule's own pattern cannot
 * match without, loosened where needed so that it holds for the text as decoded (UTF-16) and for
 * its bytes read one character per byte (latin1): only ASCII characters and classes, no upper
 * bound on a class that takes non-ASCII characters, ASCII whitespace spelled out, no `\b` or
 * `\p{L}`. A differential test (test/unit/secrets-prefilter.test.ts) holds it to the rules.
 */

/** ASCII whitespace: what `\s` means for a byte below 0x80 (a rule's `\s` may take more). */
const WS = String.raw`\t\n\v\f\r `;

/**
 * The pieces, each written from a character that is rare in source code, with lookbehinds: a
 * regular expression is scanned at about the speed of how often its branches' first characters
 * occur. So the pieces that start with punctuation common in code are grouped by it (`_`, `-`),
 * and the others start from their rarest letter: `V` of `PRIVATE KEY`, `J` of `T3BlbkFJ`, `G` of
 * `SG.`, `@` of a URL's password, `k` of AWS's `KEY` (not the `s` of `secret`, 40 times as
 * common), never `.` or `:` (docs/design/secrets.md#the-prefilter). The rules' short ids name what
 * each piece is for.
 */
const PARTS = [
  '_(?:' +
    [
      '(?<=shp(?:pa|ca|at|ss)_)[a-zA-Z0-9]{32}', // shopify
      String.raw`(?<=gh[pousr]_)\w{36}`, // github
      String.raw`(?<=github_pat_)\w{82}`, // github, fine-grained
      '(?<=glc_)[A-Za-z0-9+/]{32}', // grafana
      '(?<=glsa_)[A-Za-z0-9]{32}_', // grafana
      '(?<=gsk_)[a-zA-Z0-9]{52}', // groq
      '(?<=hf_)[a-zA-Z]{34}', // huggingface
      String.raw`(?<=lin_api_)\w{32}`, // linear
      String.raw`(?<=ntn_)\d{11}`, // notion
      '(?<=ops_)ey', // 1password
      '(?<=vc[piark]_)[A-Za-z0-9]{20}', // vercel
      '(?<=dckr_pat_)', // docker
      String.raw`(?<=figd_)[\w-]{40}`, // figma
      String.raw`(?<=npm_)\w{36}`, // npm
      'authToken=[^$]', // npm (.npmrc)
    ].join('|') +
    ')',
  '-(?:' +
    [
      '(?<=(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr)-)', // slack
      String.raw`(?<=glpat-)[\w-]{20}`, // gitlab
      String.raw`(?<=sk-ant-api0\d-)`, // anthropic
    ].join('|') +
    ')',
  String.raw`G(?<=SG)\.\w+\.\w`, // sendgrid
  String.raw`v(?<=hv)[sbr]\.[\w-]{90}`, // hashicorp-vault
  // npm (package.json); basicauth and database-connection-string: a URL with a user and a password.
  `@(?:(?<=:x-oauth-basic@)github.com/|(?<=://[^:/${WS}]+:[^@/${WS}]+@))`,
  // slack's webhook URL, matched in any case as the rule does.
  String.raw`[kK](?<=://[hH][oO][oO][kK])[sS]\.[sS][lL][aA][cC][kK]\.`,
  'V(?<=PRIV)ATE KEY', // privatekey, gcp
  'J(?<=T3BlbkFJ)', // openai
  // aws: any case of `k` (a superset of the rule's three spellings).
  String.raw`[kK](?<=(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?[kK])(?:EY|ey)`,
];

/**
 * databricks' `dapi` starts with `d`, common in code, and has no rarer letter: it is looked for
 * with `includes()` (a string search, faster than a branch of the expression) before its pattern.
 */
const DATABRICKS = /dapi[A-Fa-f0-9]{32}/;

/** gcp's key in a JSON file may be spelled with escapes (`\u0050RIVATE`): any `\u` lets it through. */
const JSON_PART = String.raw`\\u`;

const PREFILTER = new RegExp(PARTS.join('|'));
const PREFILTER_JSON = new RegExp([...PARTS, JSON_PART].join('|'));

/**
 * Whether some rule might match in `text` (decoded, or bytes as latin1) of a file that is JSON
 * (`.json`) or not. False means none can: the rules need not run. True is a maybe.
 */
export function mayHoldSecret(text: string, json = false): boolean {
  return (json ? PREFILTER_JSON : PREFILTER).test(text) || (text.includes('dapi') && DATABRICKS.test(text));
}
