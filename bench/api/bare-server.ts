// The baselines: bare Express handlers on the same database, no auth, no validation, no access rules.
// - `GET /bare/spaces/:spaceId`: one primary-key query with pg (docs/design/budgets.md);
// - `GET /bare/orgs/:organizationId/spaces` and `/bare/collections/:collectionId/spaces`: a plain Kysely
//   keyset page (no plugins) of the same rows, in the same order, as the API's space lists (issue 19).
// `pnpm bench api` compares the full stack against them.
import express from 'express';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
const app = express();
app.set('etag', false);
app.disable('x-powered-by');
app.get('/bare/spaces/:spaceId', async (req, res) => {
  const { rows } = await pool.query('SELECT * FROM spaces WHERE organization_id = $1 AND id = $2', [process.env.ORGANIZATION_ID, req.params.spaceId]);
  if (!rows[0]) {
    res.status(404).json({ error: { code: 404, message: 'Space not found' } });
    return;
  }
  res.json(rows[0]);
});

type Cursor = { parentKey?: string; position: string; id: string };

/** A keyset page: rows after the cursor (`page`: base64url JSON of the last row's keys), `limit` + 1 read. */
async function keysetList(res: express.Response, where: { organizationId: string; parentKey?: string }, page: unknown, limitParam: unknown) {
  const limit = Math.min(1000, Number(limitParam ?? 50) || 50);
  let query = db.selectFrom('spaces').selectAll().where('organization_id', '=', where.organizationId).where('deleted_at', 'is', null);
  if (where.parentKey !== undefined) query = query.where('parent_key', '=', where.parentKey);
  if (typeof page === 'string') {
    const cursor = JSON.parse(Buffer.from(page, 'base64url').toString()) as Cursor;
    query =
      where.parentKey === undefined
        ? query.where(sql<boolean>`(parent_key, position, id) > (${cursor.parentKey}, ${cursor.position}, ${cursor.id})`)
        : query.where(sql<boolean>`(position, id) > (${cursor.position}, ${cursor.id})`);
  }
  const order = where.parentKey === undefined ? (['parent_key', 'position', 'id'] as const) : (['position', 'id'] as const);
  const rows = await query.orderBy([...order]).limit(limit + 1).execute();
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next =
    rows.length > limit && last
      ? { page: Buffer.from(JSON.stringify({ parentKey: last.parent_key, position: last.position, id: last.id })).toString('base64url') }
      : undefined;
  res.json({ items, ...(next ? { next } : {}) });
}

app.get('/bare/orgs/:organizationId/spaces', (req, res) => keysetList(res, { organizationId: req.params.organizationId }, req.query.page, req.query.limit));
app.get('/bare/collections/:collectionId/spaces', (req, res) =>
  keysetList(res, { organizationId: process.env.ORGANIZATION_ID!, parentKey: req.params.collectionId }, req.query.page, req.query.limit),
);

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`ready ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => void db.destroy().then(() => process.exit(0))));
