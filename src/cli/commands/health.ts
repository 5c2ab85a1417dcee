/** `brandscape health`: is the service up? Exit 0 up, 3 down, 4 permission problem. */
import { fromArgv } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

export const healthHelp = `Usage: brandscape health [--json]

Checks GET /health of the service (BRANDSCAPE_BASE_URL, or an in-process emulator).
A 200 is up; 401 or 403 mean the service is up but refuses the token; anything else, or no
answer within a second, is down.

Options:
  --json       Print the result as JSON on stdout
${SERVICE_HELP}
  -h, --help   Show this help

Exit codes: 0 up, 3 down, 4 up with a permission problem, 2 usage error.
`;

export async function runHealth(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = fromArgv('health', argv, { ...SERVICE_OPTIONS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    io.stdout.write(healthHelp);
    return EXIT.ok;
  }
  const service = await openService(io, values);
  try {
    const result = await service.client.health();
    if (values.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout.write(`${result.status === 'up' ? 'up' : result.status === 'permission' ? 'up, but the credentials are refused' : 'down'}: ${result.message} (${result.latencyMs} ms)\n`);
    return result.status === 'up' ? EXIT.ok : result.status === 'permission' ? EXIT.permission : EXIT.service;
  } finally {
    await service.close();
  }
}
