/**
 * One worker process for worker-throughput.bench.ts's multi-process runs (not a bench on its
 * own): the production loop (`startWorker`) against the database and Redis stream the parent
 * names in TRACKER_BENCH_WORKER (JSON: databaseUrl, redisUrl, prefix, batchSize). It connects,
 * says `ready`, starts on `go`, reports its stats every 20 ms, and on `stop` stops the worker
 * and answers with its own CPU time since `go`.
 */
import { deadLetterSink, openDatabase } from '@tracker/core';
import { RedisStreamQueue } from '../src/queue';
import { startWorker, type RunningWorker } from '../src/worker/worker';

interface Settings {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  batchSize: number;
}

export type ParentMessage = { type: 'go' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready' }
  | { type: 'stats'; events: number; duplicates: number; failures: number }
  | { type: 'stopped'; cpuMs: number; batches: number };

async function main(): Promise<void> {
  const settings = JSON.parse(process.env.TRACKER_BENCH_WORKER ?? '') as Settings;
  const send = (m: ChildMessage) => process.send!(m);
  const db = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: '' });
  const queue = await RedisStreamQueue.connect({
    url: settings.redisUrl,
    prefix: settings.prefix,
    deadLetters: deadLetterSink(db.ds),
  });
  let worker: RunningWorker | undefined;
  let cpu0 = process.cpuUsage();
  let timer: NodeJS.Timeout | undefined;
  let last = -1;
  process.on('message', (m: ParentMessage) => {
    if (m.type === 'go' && !worker) {
      cpu0 = process.cpuUsage();
      worker = startWorker({
        ds: db.ds,
        queue,
        batchSize: settings.batchSize,
        log: (level, msg, d) => {
          if (level !== 'info') console.error(`worker ${process.pid} ${level}: ${msg} ${JSON.stringify(d ?? {})}`);
        },
      });
      const w = worker;
      timer = setInterval(() => {
        const done = w.stats.events + w.stats.duplicates + w.stats.failures;
        if (done === last) return;
        last = done;
        send({ type: 'stats', events: w.stats.events, duplicates: w.stats.duplicates, failures: w.stats.failures });
      }, 20);
    } else if (m.type === 'stop') {
      void (async () => {
        if (timer) clearInterval(timer);
        await worker?.stop();
        const cpu = process.cpuUsage(cpu0);
        send({ type: 'stopped', cpuMs: (cpu.user + cpu.system) / 1000, batches: worker?.stats.batches ?? 0 });
        await queue.close();
        await db.close();
        process.disconnect();
      })();
    }
  });
  send({ type: 'ready' });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
