// The content benchmarks' world: an embedded PostgreSQL of its own (durable, in a temporary folder),
// an organization, and a space of 10,000 pages (100 top-level pages with 99 children each), written
// through the batch service 50 changes at a time.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { createCaches, type Caches } from '../../packages/server/src/caches.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { postgresBlobStore, type BlobStore } from '../../packages/server/src/content/blob-store.js';
import { createDatabase, createPool, type Database } from '../../packages/server/src/db/database.js';
import { startEmbeddedPostgres } from '../../packages/server/src/db/embedded.js';
import type { SpaceRow } from '../../packages/server/src/access/standing.repository.js';
import { insertMember, insertOrganization } from '../../packages/server/src/areas/organizations/organizations.repository.js';
import { findUserById, insertUser, type UserRow } from '../../packages/server/src/auth/users.repository.js';
import { createLogger } from '../../packages/server/src/logger.js';
import { ParsePool } from '../../packages/server/src/parsing/parse-pool.js';
import { migrate } from '../../packages/server/src/db/migrate.js';
// The area registry: the services' mappers decide permissions with its access rules
// (packages/server/src/areas/permissions-objects.ts); the server loads it through server.ts, a bench here.
import '../../packages/server/src/areas/index.js';
import type { ContentChange } from '../../packages/server/src/content/apply-changes.js';
import { parseMarkdownBodies } from '../../packages/server/src/content/markdown-check.js';
import { applySpaceChanges } from '../../packages/server/src/areas/content/space-content.service.js';
import { createSpace } from '../../packages/server/src/areas/spaces/spaces.service.js';
import type { EventActor } from '../../packages/server/src/areas/events/index.js';
import { toApiUser } from '../../packages/server/src/areas/users/user.mapper.js';
import { createUrls, type Urls } from '../../packages/server/src/urls.js';

export const TOP = 100;
export const CHILDREN = 99;
export const BATCH = 50;

const WORDS = 'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');

/** ~3 KB of markdown in paragraphs, different for every seed; `edits` replaces some paragraphs. */
export function body(seed: number, edits: Record<number, string> = {}): string {
  let state = seed * 2654435761;
  const next = () => (state = (Math.imul(state ^ (state >>> 15), 2246822519) + 1) >>> 0);
  const paragraphs: string[] = [`# Section ${seed}`];
  while (paragraphs.join('\n\n').length < 3000) paragraphs.push(Array.from({ length: 40 }, () => WORDS[next() % WORDS.length]).join(' ') + '.');
  for (const [index, text] of Object.entries(edits)) paragraphs[Number(index)] = text;
  return paragraphs.join('\n\n');
}

/** An `insert_page` change with a body and the fields a real page carries. */
export function page(title: string, seed: number, extra: Partial<Extract<ContentChange, { type: 'insert_page' }>> = {}): ContentChange {
  return {
    type: 'insert_page',
    title,
    emoji: '📄',
    description: `A synthetic benchmark page, number ${seed}.`,
    layout: { cover: false, coverSize: 'full', tableOfContents: true, outline: false },
    markdown: body(seed),
    ...extra,
  };
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export type TenThousandPages = {
  pool: pg.Pool;
  db: Database;
  /** The database's address (for servers started in other processes). */
  url: string;
  /** What the content services need of the app context. */
  app: { db: Database; config: ReturnType<typeof loadConfig>; parsing: ParsePool; urls: Urls; caches: Caches; blobs: BlobStore };
  user: UserRow;
  /** The user as the actor of the events the writes record. */
  actor: EventActor;
  organizationId: string;
  /** The space at its head after seeding. */
  space: SpaceRow;
  tops: string[];
  children: Array<{ id: string; parent: string; seed: number }>;
  seededInMs: number;
  stop(): Promise<void>;
};

/** What a kept world's folder records of it (`world.json`), to be read back instead of seeded. */
type KeptWorld = { userId: string; organizationId: string; spaceId: string; tops: string[]; children: TenThousandPages['children']; seededInMs: number };

/**
 * Seeds the space with TOP × (CHILDREN + 1) pages, or none (`pages: 0`) for benchmarks that need only the
 * world. `keepIn`: the folder of a database kept after the run (`world.json` beside it once seeded); a
 * world found there is reused as it is (the caller's own seeds in it are the caller's to recognise).
 */
export async function seedTenThousandPages(options: { pages?: 0; keepIn?: string } = {}): Promise<TenThousandPages & { reused: boolean }> {
  const topCount = options.pages === 0 ? 0 : TOP;
  const log = createLogger({ logLevel: 'warn' });
  const dir = options.keepIn ?? mkdtempSync(join(tmpdir(), 'cw-bench-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755); // embedded PostgreSQL runs as user postgres when we are root
  const statePath = join(dir, 'world.json');
  // A kept folder without its record is a seed that did not finish: started again from nothing.
  if (options.keepIn && !existsSync(statePath)) rmSync(join(dir, 'pg'), { recursive: true, force: true });
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), database: 'bench', log, durability: 'durable' });
  const pool = createPool(postgres.url, 4, log);
  const db = createDatabase(pool);
  const parsing = new ParsePool();
  const stop = async () => {
    await parsing.close();
    await db.destroy();
    await postgres.stop();
    if (!options.keepIn) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrate(postgres.url, log);
    const config = loadConfig({});
    const app = { db, config, parsing, urls: createUrls(config), caches: createCaches(), blobs: postgresBlobStore };
    if (existsSync(statePath)) {
      const kept = JSON.parse(readFileSync(statePath, 'utf8')) as KeptWorld;
      const user = (await findUserById(db, kept.userId))!;
      const space = (await db.selectFrom('spaces').selectAll().where('organizationId', '=', kept.organizationId).where('id', '=', kept.spaceId).executeTakeFirstOrThrow()) as SpaceRow;
      const actor: EventActor = { type: 'user', user: toApiUser(user, app.urls) };
      return { pool, db, url: postgres.url, app, user, actor, organizationId: kept.organizationId, space, tops: kept.tops, children: kept.children, seededInMs: kept.seededInMs, stop, reused: true };
    }
    const user = await insertUser(db, { email: 'bench@example.com', displayName: 'Bench' });
    // Content writes record their event as any request's would (the user, without a token).
    const actor: EventActor = { type: 'user', user: toApiUser(user, app.urls) };
    const events = { actor };
    const organization = await insertOrganization(db, { title: 'Bench' });
    await insertMember(db, { organizationId: organization.id, userId: user.id, role: 'admin' });
    let space = await createSpace(db, { organizationId: organization.id, creatorId: user.id, parentId: null, body: { title: 'Ten thousand pages' } });

    // The parse pool's worker threads start on the first body, within the gate's deadline; on a loaded
    // machine that start alone can exceed it: started here, retried, before any timed or seeded write.
    for (let attempt = 1; ; attempt++) {
      try {
        await parseMarkdownBodies(parsing, [{ path: '/warm-up', markdown: 'Warm-up' }]);
        break;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }

    const started = performance.now();
    const tops: string[] = [];
    for (let i = 0; i < topCount; i += BATCH) {
      const applied = await applySpaceChanges(app, space, user.id, Array.from({ length: BATCH }, (_, j) => page(`Chapter ${i + j}`, i + j, { ref: `t${j}` })), events);
      space = applied.space;
      for (let j = 0; j < BATCH; j++) tops.push(applied.refs[`t${j}`]!);
    }
    const children: TenThousandPages['children'] = [];
    const pending = tops.flatMap((parent, t) => Array.from({ length: CHILDREN }, (_, c) => ({ parent, seed: TOP + t * CHILDREN + c, title: `Topic ${t}.${c}` })));
    for (let i = 0; i < pending.length; i += BATCH) {
      const slice = pending.slice(i, i + BATCH);
      const applied = await applySpaceChanges(app, space, user.id, slice.map((item, k) => page(item.title, item.seed, { parent: item.parent, ref: `r${k}` })), events);
      space = applied.space;
      slice.forEach((item, k) => children.push({ id: applied.refs[`r${k}`]!, parent: item.parent, seed: item.seed }));
    }
    const seededInMs = performance.now() - started;
    await pool.query('VACUUM ANALYZE');
    if (options.keepIn) {
      const kept: KeptWorld = { userId: user.id, organizationId: organization.id, spaceId: space.id, tops, children, seededInMs };
      writeFileSync(statePath, JSON.stringify(kept));
    }
    return { pool, db, url: postgres.url, app, user, actor, organizationId: organization.id, space, tops, children, seededInMs, stop, reused: false };
  } catch (error) {
    await stop();
    throw error;
  }
}
