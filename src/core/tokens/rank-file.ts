import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The tokenizer's rank table (a token's text, or its bytes when they are not UTF-8, at its rank)
 * as a JSON file beside the CLI's bundles (`dist/bin/<encoding>.ranks.json`, written by `npm run
 * build`). gpt-tokenizer ships it as a 2.2 MB JavaScript module (o200k_base),
 * which V8 parses as code: read as JSON it loads in 45-60 ms against 75-85, and the tokenizer is
 * built from it with gpt-tokenizer's own `GptEncoding.getEncodingApi`, as its encoding module
 * builds it (docs/design/tokens.md#the-rank-table-read-as-json).
 *
 * The file names the gpt-tokenizer version it was written from; a file of another version (a
 * dependency updated, dist/ not built again), or one that does not parse, is not used, and the
 * tokenizer loads its own module as before: the counts are the same either way, only slower.
 */
export type RankTable = (string | number[])[];

interface RankFile {
  gptTokenizer: string;
  encoding: string;
  ranks: RankTable;
}

/** The file's text for `ranks`, the table of `encoding` in gpt-tokenizer `version`. */
export function rankFileText(encoding: string, version: string, ranks: RankTable): string {
  // JSON has no holes: a table with one would come back with a null where the hole was.
  if (Object.keys(ranks).length !== ranks.length) throw new Error(`the ${encoding} rank table has holes: it cannot be written as JSON`);
  return JSON.stringify({ gptTokenizer: version, encoding, ranks } satisfies RankFile);
}

/** The file's name in dist/bin/. */
export function rankFileName(encoding: string): string {
  return `${encoding}.ranks.json`;
}

/** The version of gpt-tokenizer installed (where `from` resolves it). */
export function installedVersion(from: string | URL = import.meta.url): string {
  return (createRequire(from)('gpt-tokenizer/package.json') as { version: string }).version;
}

/**
 * The ranks of `encoding` from `file` when it holds them for gpt-tokenizer `version`; undefined when
 * there is no such file, it does not parse, or it was written from another version or encoding.
 */
export function readRankFile(file: string | URL, encoding: string, version: string): RankTable | undefined {
  let parsed: Partial<RankFile>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<RankFile>;
  } catch {
    return undefined;
  }
  if (parsed?.gptTokenizer !== version || parsed.encoding !== encoding || !Array.isArray(parsed.ranks)) return undefined;
  return parsed.ranks;
}

/**
 * Where the file is for this module: beside it in a bundle (dist/bin/*.cjs), in dist/bin/ from
 * dist/core/tokens/ (the library). From the sources there is none: the tokenizer loads its module.
 */
export function rankFileFor(encoding: string, here: string = import.meta.url): string {
  const dir = here.endsWith('.cjs') ? './' : '../../bin/';
  return fileURLToPath(new URL(`${dir}${rankFileName(encoding)}`, here));
}
