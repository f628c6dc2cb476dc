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
 * The pieces, grouped by a character each group's pieces share (`_`, `-`, `.`, `:`) and
 * written from it with lookbehinds: a regular expression whose every branch starts with one of a
 * few characters is scanned about three times faster than one branch per rule
 * (docs/design/secrets.md#the-prefilter). The rules' short ids name what each piece is for.
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
  String.raw`\.(?:(?<=SG\.)\w+\.\w|(?<=hv[sbr]\.)[\w-]{90})`, // sendgrid, hashicorp-vault
  // npm (package.json); basicauth and database-connection-string (a URL with a user and a
  // password); slack's webhook URL, matched in any case as the rule does.
  `:(?:x-oauth-basic@github.com/|//[^:/${WS}]+:[^@/${WS}]+@|//[hH][oO][oO][kK][sS]\\.[sS][lL][aA][cC][kK]\\.)`,
  'PRIVATE KEY', // privatekey, gcp
  'T3BlbkFJ', // openai
  'dapi[A-Fa-f0-9]{32}', // databricks
  String.raw`(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)`, // aws
];

/** gcp's key in a JSON file may be spelled with escapes (`\u0050RIVATE`): any `\u` lets it through. */
const JSON_PART = String.raw`\\u`;

const PREFILTER = new RegExp(PARTS.join('|'));
const PREFILTER_JSON = new RegExp([...PARTS, JSON_PART].join('|'));

/**
 * Whether some rule might match in `text` (decoded, or bytes as latin1) of a file that is JSON
 * (`.json`) or not. False means none can: the rules need not run. True is a maybe.
 */
export function mayHoldSecret(text: string, json = false): boolean {
  return (json ? PREFILTER_JSON : PREFILTER).test(text);
}
