// Child process of loader.bench.mjs: serves an emulator with the options given as JSON in argv[2],
// so the loader under test has the parent process (and its memory figures) to itself.
const { createEmulator } = await import('../../dist/emulator/index.js');
const emulator = await createEmulator({ port: 0, ...JSON.parse(process.argv[2] ?? '{}') });
process.send({ type: 'ready', url: emulator.url, token: emulator.token });
process.on('message', async (message) => {
  if (message.type === 'requests') {
    process.send({ type: 'requests', requests: emulator.requests.map(({ at, status, durationMs }) => ({ at, status, durationMs })) });
  } else if (message.type === 'clear') {
    emulator.clearRequests();
    process.send({ type: 'cleared' });
  } else if (message.type === 'stop') {
    await emulator.close();
    process.exit(0);
  }
});
