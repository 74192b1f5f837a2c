import type { DataSource, Logger } from 'typeorm';

/**
 * The statements TypeORM sends while `run` runs, with their parameters, for tests that explain
 * the plan of what a core function really sends (decision 034's reads, decision 046's tag search).
 */
export async function captureQueries<T>(
  ds: DataSource,
  run: () => Promise<T>,
): Promise<{ result: T; sent: Array<{ sql: string; params: unknown[] }> }> {
  const sent: Array<{ sql: string; params: unknown[] }> = [];
  const holder = ds as unknown as { logger: Logger };
  const original = holder.logger;
  holder.logger = new Proxy(original, {
    get(target, prop, receiver) {
      if (prop === 'logQuery')
        return (sql: string, params?: unknown[]) => void sent.push({ sql, params: params ?? [] });
      return Reflect.get(target, prop, receiver);
    },
  });
  try {
    return { result: await run(), sent };
  } finally {
    holder.logger = original;
  }
}
