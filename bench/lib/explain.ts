// The plans of the statements a piece of server code runs, as it runs them: a pg pool whose clients run
// `EXPLAIN (ANALYZE, BUFFERS)` of each read statement (with the same parameters) just before the
// statement itself, and record the plan. A database built on it (createDatabase) hands the server's
// own functions (searchPages, …) to EXPLAIN without copying their SQL into the benchmark.
import type pg from 'pg';

export type ExplainedStatement = { sql: string; plan: string[]; executionMs: number; planningMs: number };

/** `pool`, whose clients record the plan of every SELECT or WITH statement into `plans` before running it. */
export function explainingPool(pool: pg.Pool, plans: ExplainedStatement[]): pg.Pool {
  const explained = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return async (config: string | pg.QueryConfig, values?: unknown[]) => {
          const text = typeof config === 'string' ? config : config.text;
          const parameters = typeof config === 'string' ? values : (config.values ?? values);
          if (/^\s*(WITH|SELECT)\b/i.test(text)) {
            const { rows } = await target.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, parameters);
            const plan = rows.map((row) => row['QUERY PLAN']);
            const time = (label: string) => Number(new RegExp(`^${label} Time: ([\\d.]+) ms`).exec(plan.find((line) => line.startsWith(`${label} Time`)) ?? '')?.[1] ?? NaN);
            plans.push({ sql: text, plan, executionMs: time('Execution'), planningMs: time('Planning') });
          }
          return target.query(text, parameters);
        };
      },
    });
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property === 'connect') return async () => explained(await target.connect());
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
