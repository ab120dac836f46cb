// Where a server's CPU time goes, from a V8 CPU profile (`node --cpu-prof`): each sample is charged to
// the stage of the request path it ran in — the innermost frame on its stack that belongs to one of the
// middlewares (access log and metrics, caller, rate limit, validator, access gate, body guard, handler,
// serializer) or to Express's own routing — and, when no such frame is on the stack (the pg driver
// parsing a socket's data, a Kysely continuation resumed by the microtask queue, Node's HTTP parser,
// GC), to the library the sample ran in. Frames of a built server (one bundle) are mapped back to
// their sources through the bundle's source map.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] };
export type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** The stages of the request path, in its order (app.ts), then what runs outside any of them. */
export const STAGES = [
  'request id, access log, metrics (http/observability)',
  'security and CORS headers, compression check, health routes (app.ts, Express layers)',
  'caller: bearer token (auth/authenticate)',
  'rate-limit charge (http/rate-limit)',
  'validator: operation match and security (express-openapi-validator)',
  'access: path parameters, standing, rank, rules (http/access-gate, access/*; before the gate, auth/access*)',
  'body guard and input rules (http/body, http/input-rules)',
  'validator: request validation (express-openapi-validator)',
  'dispatcher (http/router)',
  'handler: area code and mapper (areas/*; earlier, routes/* and mappers/*)',
  'serializer and send (http/router send, http/serializers)',
  'errors (http/error-middleware)',
  'Express and its router (between middlewares)',
] as const;

const EXPRESS_MODULES = new Set([
  'express', 'router', 'body-parser', 'send', 'finalhandler', 'on-finished', 'content-type', 'mime-types', 'type-is', 'qs', 'accepts', 'negotiator',
  'encodeurl', 'parseurl', 'path-to-regexp', 'cookie', 'vary', 'proxy-addr', 'forwarded', 'etag', 'fresh', 'range-parser', 'content-disposition',
  'depd', 'http-errors', 'statuses', 'debug', 'ms', 'safe-buffer', 'setprototypeof', 'inherits', 'media-typer', 'escape-html', 'compression',
]);

/** The npm package a frame's file belongs to, if any. */
function moduleOf(url: string): string | undefined {
  return /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
}

/** The stage a frame belongs to; undefined for a frame that belongs to none (a library, Node core). */
function stageOf(source: string, functionName: string): string | undefined {
  const module = moduleOf(source);
  if (module === 'express-openapi-validator') {
    if (/openapi\.(metadata|security)|path\.params|pathParams/.test(source + functionName)) return STAGES[4];
    return STAGES[7];
  }
  if (module) return EXPRESS_MODULES.has(module) ? STAGES[12] : undefined;
  const project = /(?:^|\/)src\/(.+)$/.exec(source)?.[1];
  if (!project) return undefined;
  if (project.startsWith('http/observability.')) return STAGES[0];
  if (project === 'app.ts') return STAGES[1];
  if (project.startsWith('auth/authenticate.') || project.startsWith('auth/token-cache.') || project.startsWith('auth/tokens.')) return STAGES[2];
  if (project.startsWith('http/rate-limit')) return STAGES[3];
  if (project.startsWith('http/validator.')) return STAGES[4];
  // The permissions object and roles are read by mappers too: charged to whoever calls them.
  if (project.startsWith('access/permissions.') || project.startsWith('access/roles.')) return undefined;
  if (project.startsWith('http/access-gate.') || project.startsWith('access/')) return STAGES[5];
  // Earlier commits' layout (bench --against): access decided by the handlers through auth/access*.
  if (/^auth\/(access|viewer|organization-access)/.test(project) || project.startsWith('db/repositories/access.')) return STAGES[5];
  if (project.startsWith('routes/') || project.startsWith('mappers/') || project.startsWith('services/')) return STAGES[9];
  if (project.startsWith('http/errors.')) return STAGES[11];
  if (project.startsWith('http/body.') || project.startsWith('http/input-rules.')) return STAGES[6];
  if (project.startsWith('http/serializers.') || (project.startsWith('http/router.') && /^send(\$\d+)?$/.test(functionName))) return STAGES[10];
  if (project.startsWith('http/router.')) return STAGES[8];
  if (project.startsWith('areas/')) return STAGES[9];
  if (project.startsWith('http/error-middleware.') || project === 'errors.ts') return STAGES[11];
  return undefined;
}

/** Outside every stage: the library or runtime part the sample itself ran in. */
function libraryOf(source: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'native, unattributed (program)';
  const module = moduleOf(source);
  if (module) {
    if (module === 'pg' || module.startsWith('pg-') || module === 'postgres-date' || module === 'postgres-array' || module === 'postgres-bytea' || module === 'postgres-interval') {
      return 'pg driver: protocol, row parsing (outside a stage)';
    }
    if (module === 'kysely') return 'Kysely: result transform, connection (outside a stage)';
    return `${module} (outside a stage)`;
  }
  if (/(?:^|\/)src\/db\//.test(source)) return 'db/database.ts: pg client, row mapping (outside a stage)';
  if (source.startsWith('node:') || source === '') return 'Node core: HTTP parser, sockets, timers (outside a stage)';
  return `other: ${source.replace(/.*\/src\//, 'src/')} (outside a stage)`;
}

/**
 * Maps the frames of built files back to their sources (the `.map` beside each bundle), in place: the
 * profile then reads like one of the sources, here and in DevTools, after the build is gone.
 */
export function resolveSources(profile: CpuProfile): void {
  const maps = new Map<string, SourceMap | null>();
  for (const { callFrame } of profile.nodes) {
    const { url } = callFrame;
    if (!url.startsWith('file://') || !/\/(dist|\.dist-[^/]+)\/[^/]+\.js$/.test(url)) continue;
    let map = maps.get(url);
    if (map === undefined) {
      const file = `${fileURLToPath(url)}.map`;
      map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
      maps.set(url, map);
    }
    const entry = map?.findEntry(callFrame.lineNumber, callFrame.columnNumber) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
    if (!entry?.originalSource) continue;
    callFrame.url = new URL(entry.originalSource, pathToFileURL(fileURLToPath(url))).href;
    callFrame.lineNumber = entry.originalLine ?? callFrame.lineNumber;
    callFrame.columnNumber = entry.originalColumn ?? callFrame.columnNumber;
  }
}

export type StageTable = {
  /** Time (µs) per stage or outside part, over the window. */
  time: Map<string, number>;
  /** Self time (µs) by function within each stage or outside part. */
  within: Map<string, Map<string, number>>;
  /** Busy time in the window (idle excluded), µs. */
  busy: number;
  /** Length of the window, µs. */
  window: number;
  /** Self time by function (name and source), µs: the top of the profile. */
  functions: Map<string, number>;
};

/** Charges the samples of the window [from, to] (µs from the profile's start) to stages (sources resolved first). */
export function stageTable(profile: CpuProfile, window: { from: number; to: number }): StageTable {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const source = (node: ProfileNode) => node.callFrame.url.replace(/^file:\/\//, '');
  const chargeOf = new Map<number, string | null>();
  const charge = (leaf: ProfileNode): string | null => {
    let known = chargeOf.get(leaf.id);
    if (known !== undefined) return known;
    if (leaf.callFrame.functionName === '(idle)') known = null;
    else {
      for (let node: ProfileNode | undefined = leaf; node; node = byId.get(parentOf.get(node.id) ?? -1)) {
        const stage = stageOf(source(node), node.callFrame.functionName);
        if (stage) {
          known = stage;
          break;
        }
      }
      known ??= libraryOf(source(leaf), leaf.callFrame.functionName);
    }
    chargeOf.set(leaf.id, known);
    return known;
  };
  const time = new Map<string, number>();
  const functions = new Map<string, number>();
  const within = new Map<string, Map<string, number>>();
  let busy = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < window.from || at > window.to) return;
    const leaf = byId.get(id)!;
    const stage = charge(leaf);
    if (stage === null) return;
    busy += delta;
    time.set(stage, (time.get(stage) ?? 0) + delta);
    const name = `${leaf.callFrame.functionName || '(anonymous)'} ${source(leaf).replace(/.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/.*\/packages\//, '')}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
    let inStage = within.get(stage);
    if (!inStage) within.set(stage, (inStage = new Map()));
    inStage.set(name, (inStage.get(name) ?? 0) + delta);
  });
  return { time, within, busy, window: window.to - window.from, functions };
}

/** The profile's length in µs (the sum of its sample intervals). */
export function profileLength(profile: CpuProfile): number {
  return profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
}

/**
 * The stage tables of several profiles side by side: share of the busy time and µs per request, for
 * each profile (`cpuMicros`: the server's CPU time per request, which the shares divide).
 */
export function formatStageTables(columns: Array<{ label: string; table: StageTable; cpuMicros: number }>): string {
  const rows = [...new Set([...STAGES, ...columns.flatMap((column) => [...column.table.time.keys()])])].filter((row) =>
    columns.some((column) => (column.table.time.get(row) ?? 0) / column.table.busy >= 0.002),
  );
  const cell = (column: (typeof columns)[number], time: number) =>
    `${((time / column.table.busy) * 100).toFixed(1).padStart(5)}% ${((time / column.table.busy) * column.cpuMicros).toFixed(0).padStart(5)} µs`;
  const header = `| part of the request path | ${columns.map((column) => `${column.label}: share, µs/req`).join(' | ')} |`;
  const lines = [header, `|---|${columns.map(() => '---|').join('')}`];
  for (const row of rows) lines.push(`| ${row} | ${columns.map((column) => cell(column, column.table.time.get(row) ?? 0)).join(' | ')} |`);
  lines.push(`| **total (busy)** | ${columns.map((column) => cell(column, column.table.busy)).join(' | ')} |`);
  return lines.join('\n');
}
