// The instance's Prometheus registry (`GET /metrics`, http/observability.ts), built once per server in
// server.ts and reached through the AppContext (`context.metrics`). Whatever keeps state worth watching
// registers it here in one line:
//
//   context.metrics.cache('pdfs', () => cache.stats());                       // size, bytes, budget, hits, misses
//
// (server.ts registers every cache of caches.ts this way: a new cache there is reported by itself.)
//   const deliveries = context.metrics.counter({ name: 'webhook_deliveries_total', help: '…', labelNames: ['outcome'] });
//   context.metrics.gauge({ name: 'x', help: '…', collect() { this.set(read()); } });
//
// Values read at scrape time (`collect`) cost nothing between scrapes. Names follow Prometheus'
// conventions: `_total` for counters, a base unit in the name (`_seconds`, `_bytes`).
import { collectDefaultMetrics, Counter, Gauge, Registry, type CounterConfiguration, type GaugeConfiguration } from 'prom-client';

/**
 * What a cache reports at each scrape: entries now, bytes now and its budget (when it counts them), and
 * hits and misses since the start. The server's caches (caches.ts) report every figure.
 */
export type CacheStats = { entries: number; bytes?: number; maxBytes?: number; hits: number; misses: number };

export type Metrics = {
  registry: Registry;
  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  /** Reports a cache as `cache_entries`, `cache_bytes`, `cache_max_bytes`, `cache_hits_total` and `cache_misses_total`, labelled `cache="<name>"`. */
  cache(name: string, stats: () => CacheStats): void;
};

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>) => new Counter<L>({ ...config, registers: [registry] });
  const gauge = <L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>) => new Gauge<L>({ ...config, registers: [registry] });
  return { registry, counter, gauge, cache: cacheMetrics(counter, gauge) };
}

/** One set of series for every cache; each collect reads the registered caches' stats (cheap: sizes and counters). */
function cacheMetrics(counter: Metrics['counter'], gauge: Metrics['gauge']): Metrics['cache'] {
  const caches = new Map<string, () => CacheStats>();
  const each = (report: (cache: string, stats: CacheStats) => void) => {
    for (const [cache, stats] of caches) report(cache, stats());
  };
  gauge({
    name: 'cache_entries',
    help: 'Entries in each cache of this instance',
    labelNames: ['cache'],
    collect() {
      this.reset();
      each((cache, stats) => this.set({ cache }, stats.entries));
    },
  });
  gauge({
    name: 'cache_bytes',
    help: 'Bytes held by each cache of this instance that counts them (estimated when each entry is stored)',
    labelNames: ['cache'],
    collect() {
      this.reset();
      each((cache, stats) => stats.bytes !== undefined && this.set({ cache }, stats.bytes));
    },
  });
  gauge({
    name: 'cache_max_bytes',
    help: 'Bytes each cache of this instance may hold (its share of CACHE_MEMORY_MB)',
    labelNames: ['cache'],
    collect() {
      this.reset();
      each((cache, stats) => stats.maxBytes !== undefined && this.set({ cache }, stats.maxBytes));
    },
  });
  // The caches count their hits and misses themselves (the counts only grow while the process runs).
  const total = (name: string, help: string, key: 'hits' | 'misses') =>
    counter({
      name,
      help,
      labelNames: ['cache'],
      collect() {
        this.reset();
        each((cache, stats) => this.inc({ cache }, stats[key]));
      },
    });
  total('cache_hits_total', 'Lookups each cache answered (hit rate: rate(cache_hits_total) / (rate(cache_hits_total) + rate(cache_misses_total)))', 'hits');
  total('cache_misses_total', 'Lookups each cache could not answer', 'misses');
  return (name, stats) => {
    caches.set(name, stats);
  };
}
