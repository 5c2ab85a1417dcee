// `node --import ./test/helpers/module-log.mjs ...`: logs every module the process loads (see
// module-log-hooks.mjs).
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url);
