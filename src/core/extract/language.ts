import path from 'node:path';

/** docs/reference.md#extraction-output: fence language by extension; otherwise the extension itself; none: `text`. */
const LANGUAGES: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  swift: 'swift',
  kt: 'kotlin',
  java: 'java',
  rs: 'rust',
  go: 'go',
  rb: 'ruby',
  sh: 'bash',
  bash: 'bash',
  yaml: 'yaml',
  yml: 'yaml',
  json: 'json',
  md: 'markdown',
  conv: 'dockerfile',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  hpp: 'cpp',
  cc: 'cpp',
  sql: 'sql',
  html: 'html',
  css: 'css',
  xml: 'xml',
  toml: 'toml',
};

export function languageOf(file: string): string {
  const ext = path.extname(file);
  if (ext.length <= 1) return 'text';
  const bare = ext.slice(1);
  return LANGUAGES[bare.toLowerCase()] ?? bare;
}
