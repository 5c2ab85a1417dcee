// Child process of emulator.bench.mjs: starts an emulator, reports start-up time and memory, then
// serves until told to stop, reporting its own CPU time per request on request.
const started = process.hrtime.bigint();
const { createEmulator } = await import('../../dist/emulator/index.js');
const emulator = await createEmulator({ port: 0, rateLimit: 0 });
const startMs = Number(process.hrtime.bigint() - started) / 1e6;
global.gc?.();
process.send({ type: 'ready', url: emulator.url, token: emulator.token, startMs, rssMb: process.memoryUsage().rss / 2 ** 20 });
let cpuMark = process.cpuUsage();
process.on('message', async (message) => {
  if (message.type === 'cpu-mark') {
    cpuMark = process.cpuUsage();
    process.send({ type: 'cpu-marked' });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage(cpuMark);
    process.send({ type: 'cpu', ms: (used.user + used.system) / 1000, userMs: used.user / 1000, systemMs: used.system / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 });
  } else if (message.type === 'stop') {
    await emulator.close();
    process.exit(0);
  }
});
