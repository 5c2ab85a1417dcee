// Child process of emulator.bench.mjs: starts an emulator, reports start-up time and memory, then
// serves until told to stop, reporting its own CPU time per request on request.
const started = process.hrtime.bigint();
const { createEmulator } = await import('../../dist/emulator/index.js');
const emulator = await createEmulator({ port: 0, rateLimit: 0 });
const startMs = Number(process.hrtime.bigint() - started) / 1e6;
global.gc?.();
process.send({ type: 'ready', url: emulator.url, token: emulator.token, startMs, rssMb: process.memoryUsage().rss / 2 ** 20 });
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms of the main thread and of all others (V8's collector and compiler helpers), from /proc where there is one. */
function threadCpu() {
  try {
    const tick = 10; // USER_HZ is 100 on Linux
    let main = 0;
    let others = 0;
    for (const task of readdirSync('/proc/self/task')) {
      const fields = readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * tick;
      if (Number(task) === process.pid) main += ms;
      else others += ms;
    }
    return { main, others };
  } catch {
    return undefined;
  }
}

let cpuMark = process.cpuUsage();
let threadMark = threadCpu();
process.on('message', async (message) => {
  if (message.type === 'cpu-mark') {
    cpuMark = process.cpuUsage();
    threadMark = threadCpu();
    if (process.env.EMU_MARK) console.log('=== CPU MARK ===');
    process.send({ type: 'cpu-marked' });
  } else if (message.type === 'cpu') {
    const used = process.cpuUsage(cpuMark);
    const threads = threadCpu();
    const split = threads && threadMark ? { mainMs: threads.main - threadMark.main, othersMs: threads.others - threadMark.others } : {};
    process.send({ type: 'cpu', ms: (used.user + used.system) / 1000, userMs: used.user / 1000, systemMs: used.system / 1000, ...split, rssMb: process.memoryUsage().rss / 2 ** 20 });
  } else if (message.type === 'stop') {
    await emulator.close();
    process.exit(0);
  }
});
