import fs from 'node:fs';

export async function load(url, context, next) {
  if (process.env.REFCAT_TRACE_IMPORTS) fs.appendFileSync(process.env.REFCAT_TRACE_IMPORTS, url + '\n');
  return next(url, context);
}
