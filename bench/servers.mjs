// Servers for the benches of the local server, each in its own process as users run them, with
// what the benches read from it over IPC: CPU time, RSS and the event loop's delays (Node's
// monitorEventLoopDelay, 10 ms resolution: how long the server could not start anything else).
//   spawnLlmobs({ dataDir, dist, writeMode, ui })  llmobs server from a build's dist/server.mjs
//                                                (ui: with its web UI; uiUrl is its one-time link)
//   spawnFloor({ dataDir })                    bench/floor-server.mjs, the floor
// Both resolve to { url, auth, child, dataDir, stats(), resetLoop(), stop() }.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

// Appended to each server's script: answers the bench's questions over IPC.
const MONITOR = `
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  let loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message) => {
    if (message === 'reset') { loop.disable(); loop = monitorEventLoopDelay({ resolution: 10 }); loop.enable(); process.send({ reset: true }); return; }
    const cpu = process.cpuUsage();
    process.send({ cpu: (cpu.user + cpu.system) / 1e6, rss: process.memoryUsage.rss(), maxRss: process.resourceUsage().maxRSS * 1024, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6 });
  });
`;

/**
 * Resolves with `{ child, ...JSON }` of the first line a child process writes on stdout (the
 * start line of a server started with --json); rejects if it exits before that.
 */
export function firstJsonLine(child, what = 'server') {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve({ child, ...JSON.parse(buffer.split('\n')[0]) });
    });
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}

function start(script, env = process.env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env });
  return firstJsonLine(child).then((info) => {
    // One question at a time: answers come back in order.
    let queue = Promise.resolve();
    const ask = (message) =>
      (queue = queue.then(
        () =>
          new Promise((resolve) => {
            child.once('message', resolve);
            child.send(message);
          }),
      ));
    return {
      ...info,
      child,
      auth: `Basic ${Buffer.from(`${info.publicKey}:${info.secretKey}`).toString('base64')}`,
      /** { cpu (s), rss, maxRss (bytes), loopMaxMs, loopP99Ms } */
      stats: () => ask('stats'),
      /** Starts the event loop's delay figures afresh. */
      resetLoop: () => ask('reset'),
      stop: () =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    };
  });
}

/** llmobs server (a build's dist/server.mjs), on disk in dataDir or in memory without one. */
export function spawnLlmobs({ dataDir, dist = join(root, 'dist'), writeMode = 'dual', nodeArgs = [], ui = false } = {}) {
  const script = `
    const { startServer } = await import(${JSON.stringify(join(dist, 'server.mjs'))});
    const s = await startServer({ port: 0, ephemeral: ${!dataDir}, dataDir: ${JSON.stringify(dataDir)}, writeMode: ${JSON.stringify(writeMode)}${ui ? ', ui: { port: 0 }' : ''} });
    ${MONITOR}
    console.log(JSON.stringify({ url: s.url, uiUrl: s.uiUrl, publicKey: s.keys.publicKey, secretKey: s.keys.secretKey }));
    process.on('SIGTERM', async () => { await s.close(); process.exit(0); });`;
  return start(script, process.env, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []), ...nodeArgs]);
}

/** The floor (bench/floor-server.mjs) on dataDir. */
export function spawnFloor({ dataDir }) {
  const script = `
    const { startFloor, PUBLIC_KEY, SECRET_KEY } = await import(${JSON.stringify(join(root, 'bench', 'floor-server.mjs'))});
    const s = await startFloor({ dataDir: ${JSON.stringify(dataDir)} });
    ${MONITOR}
    console.log(JSON.stringify({ url: s.url, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY }));
    process.on('SIGTERM', async () => { await s.close(); process.exit(0); });`;
  return start(script);
}

/** Bytes of the files in a directory (a stopped server has checkpointed its WAL into its database). */
export const dirBytes = (dir) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** The load averages now, as uptime prints them. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
