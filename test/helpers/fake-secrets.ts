import fc from 'fast-check';

/**
 * Made-up credentials, one or more per rule of secretlint's recommended preset, each in the
 * format its rule matches. Each is put together from pieces here, so that this repository holds
 * no text a scanner would take for a secret (docs/refs.md#secrets).
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';

/** `n` characters of `alphabet`, the same for the same seed: fixed, not random, but no run of one character. */
export function body(alphabet: string, n: number, seed = 7): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length];
  }
  return out;
}

function base64Json(n: number, seed: number): string {
  // ops_ wants base64 of a JSON object that ends in `fQ` (a `}`), optionally padded.
  let json = `{"email":"${body(LOWER, 12, seed)}@example.test","k":"${body(ALNUM, Math.max(n, 80), seed)}"}`;
  while (json.length % 3 !== 1) json = json.replace('"k":"', '"k":"x');
  return Buffer.from(json).toString('base64');
}

/** A fake credential: the rule that finds it, the file name it is planted in, the line, the secret's text. */
export interface FakeSecret {
  rule: string;
  file: string;
  /** The secret as it stands in the file (what must never be printed). */
  value: string;
  /** The text planted (a line, or lines, holding the value). */
  text: string;
  /** The secret characters of the value (its password, its key's body): no 8 of them in a row may be printed. */
  secret: string;
}

/** Every run of `n` characters of `secret` (the whole of it when shorter): none may be printed. */
export function pieces(secret: string, n = 8): string[] {
  if (secret.length <= n) return [secret];
  const out: string[] = [];
  for (let i = 0; i + n <= secret.length; i++) out.push(secret.slice(i, i + n));
  return out;
}

const p = (...parts: string[]) => parts.join('');

/** One credential per rule and per form of it, with bodies from `seed`. */
export function fakeSecrets(seed = 7): FakeSecret[] {
  const b = (alphabet: string, n: number) => body(alphabet, n, seed);
  const keyLines = [p('-----BEGIN RSA PRIVATE', ' KEY-----'), p('MI', 'IE', b(ALNUM + '+/', 58)), b(ALNUM + '+/', 64), b(ALNUM, 40), p('-----END RSA PRIVATE', ' KEY-----')];
  const key = keyLines.join('\n');
  const gcpKey = [p('-----BEGIN PRIVATE', ' KEY-----'), p('MI', 'IE', b(ALNUM, 120)), p('-----END PRIVATE', ' KEY-----'), ''].join('\\n');
  const gcpJson = `{"type": "service_account", "private_key_id": "${b(HEX, 40)}", "private_key": "${gcpKey}", "client_email": "x@example.test"}`;
  // Hex from an alphanumeric body: body() over 16 characters repeats itself.
  const hex = [...b(ALNUM, 32)].map((c) => (c.charCodeAt(0) % 16).toString(16)).join('');
  const uuid = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  const secrets: [string, string, string, (v: string) => string][] = [
    ['aws', 'deploy.sh', b(ALNUM + '/+', 40), (v) => `export AWS_${'SECRET'}_ACCESS_KEY="${v}"`],
    ['aws', 'aws.json', b(ALNUM + '/+', 40), (v) => `{"AccessKeyId": "x", "${'Secret'}AccessKey": "${v}"}`],
    ['aws', 'credentials.ini', b(ALNUM + '/+', 40), (v) => `[default]\naws_${'secret'}_access_key = ${v}`],
    ['aws', 'c.ini', b(ALNUM + '/+', 40), (v) => `aws_${'secret'}_access_key=${v}`],
    ['gcp', 'service-account.json', gcpJson, (v) => v],
    ['privatekey', 'id_rsa', key, (v) => v],
    ['npm', 'src/npm.ts', p('np', 'm_', b(ALNUM, 36)), (v) => `const token = "${v}";`],
    ['npm', '.npmrc', uuid, (v) => `//registry.npmjs.org/:_${'auth'}Token=${v}`],
    ['npm', 'package.json', p(b(LOWER, 8), ':x-oauth', '-basic'), (v) => `{"repository": "https://${v}@github.com/o/r"}`],
    ['basicauth', 'deploy.md', p('https://deployer:', b(ALNUM, 14), '@build.example.net'), (v) => `Fetch ${v}/x first.`],
    ['slack', 'notify.py', p('xo', 'xb-', b(DIGITS, 12), '-', b(ALNUM, 24)), (v) => `TOKEN = "${v}"`],
    ['slack', 'hook.md', p('https://hooks.', 'slack.com/services/T', b(UPPER, 8), '/B', b(UPPER, 8), '/', b(ALNUM, 24)), (v) => `post to ${v}`],
    ['sendgrid', 'mail.ts', p('S', 'G.', b(ALNUM, 22), '.', b(ALNUM, 43)), (v) => `key("${v}")`],
    ['shopify', 'shop.rb', p('shp', 'at_', b(ALNUM, 32)), (v) => `token = '${v}'`],
    ['github', 'src/config.ts', p('gh', 'p_', b(ALNUM, 36)), (v) => `export const token = "${v}";`],
    ['github', 'ci.yml', p('github', '_pat_', b(ALNUM + '_', 82)), (v) => `token: ${v}`],
    ['gitlab', 'ci.sh', p('glp', 'at-', b(ALNUM, 20)), (v) => `GL=${v}`],
    ['grafana', 'g.env', p('gl', 'c_eyJ', b(ALNUM, 40)), (v) => `GRAFANA=${v}`],
    ['grafana', 'g2.env', p('gl', 'sa_', b(ALNUM, 32), '_', b(HEX, 8)), (v) => `GRAFANA=${v}`],
    ['openai', 'ai.py', p('s', 'k-', b(ALNUM, 20), 'T3Blbk', 'FJ', b(ALNUM, 20)), (v) => `openai.key = "${v}"`],
    ['anthropic', 'claude.py', p('sk-', 'ant-api03-', b(ALNUM + '_-', 93), 'AA'), (v) => `KEY = "${v}"`],
    ['groq', 'groq.py', p('gs', 'k_', b(ALNUM, 52)), (v) => `KEY = "${v}"`],
    ['huggingface', 'hf.py', p('h', 'f_', b(UPPER + LOWER, 34)), (v) => `KEY = "${v}"`],
    ['linear', 'linear.ts', p('lin', '_api_', b(ALNUM, 40)), (v) => `key: "${v}"`],
    ['notion', 'notion.ts', p('nt', 'n_', b(DIGITS, 11), b(ALNUM, 35)), (v) => `key: "${v}"`],
    ['1password', 'op.sh', p('op', 's_', base64Json(90, seed)), (v) => `OP_TOKEN=${v}`],
    ['database-connection-string', 'db.env', p('postgres://app:', b(ALNUM, 16), '@db.internal:5432/app'), (v) => `DATABASE_URL=${v}`],
    ['database-connection-string', 'mongo.env', p('mongodb+srv://app:', b(ALNUM, 16), '@cluster0.example.net/app'), (v) => `MONGO=${v}`],
    ['database-connection-string', 'mysql.env', p('mysql://app:', b(ALNUM, 16), '@db.internal/app'), (v) => `MYSQL=${v}`],
    ['hashicorp-vault', 'vault.sh', p('hv', 's.', b(ALNUM + '_-', 95)), (v) => `VAULT_TOKEN=${v}`],
    ['vercel', 'vercel.sh', p('vc', 'p_', b(ALNUM, 24)), (v) => `VERCEL=${v}`],
    ['databricks', 'db.py', p('da', 'pi', b(HEX, 32)), (v) => `TOKEN = "${v}"`],
    ['docker', 'docker.sh', p('dckr', '_pat_', b(ALNUM + '_-', 27)), (v) => `echo ${v} | docker login`],
    ['figma', 'figma.ts', p('fi', 'gd_', b(ALNUM + '_-', 43)), (v) => `key: "${v}"`],
  ];
  const secretOf = (rule: string, value: string): string => {
    if (rule === 'privatekey') return keyLines.slice(1, -1).join('\n');
    if (rule === 'gcp') return gcpKey.split('\\n')[1]!;
    // A URL's password (or x-oauth-basic's token): the scheme, user and host around it are not secret.
    const pass = /^[a-z+]+:\/\/[^:]+:([^@]+)@/.exec(value) ?? /^([^:]+):x-oauth/.exec(value);
    if (pass) return pass[1]!;
    return value.includes('/services/') ? value.slice(value.indexOf('/services/') + '/services/'.length) : value;
  };
  return secrets.map(([rule, file, value, line]) => ({ rule, file, value, text: line(value), secret: secretOf(rule, value) }));
}

/** The preset's rules, by short id: every one has a fake above. */
export const PRESET_RULES = [
  'aws', 'gcp', 'privatekey', 'npm', 'basicauth', 'slack', 'sendgrid', 'shopify', 'github', 'gitlab', 'grafana', 'openai',
  'anthropic', 'groq', 'huggingface', 'linear', 'notion', '1password', 'database-connection-string', 'hashicorp-vault',
  'vercel', 'databricks', 'docker', 'figma',
];

/** A fake credential of any rule, with a random body. */
export const anySecret: fc.Arbitrary<FakeSecret> = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.nat())
  .map(([seed, pick]) => {
    const all = fakeSecrets(seed);
    return all[pick % all.length]!;
  });
