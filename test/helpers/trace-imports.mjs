// `node --import ./test/helpers/trace-imports.mjs ...`: appends the URL of every module loaded
// to the file named by REFCAT_TRACE_IMPORTS (the start-up test reads it).
import { register } from 'node:module';

register('./trace-imports-hooks.mjs', import.meta.url);
