// The baseline: a bare Express handler doing one primary-key query on the same database, no auth, no
// validation. `pnpm bench` compares the full stack against it.
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', () => {});
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
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`ready ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
