// Page feedback and insights of published sites (issue 28): the "Was this page helpful?" form and its
// endpoint through real HTTP (no script needed, cross-site posts refused, nothing of the reader kept),
// the admins' feedback list and the insights through the SDK, and the batched counts behind them.
import { describe, expect, it } from 'vitest';
import { addMember, createOrganizationWithAdmin, createUser } from '../support/factories.js';
import { useTestServer } from '../support/harness.js';
import { publishedSite, sitePath, Visitor, type PublishedWorld } from '../support/published.js';

const server = useTestServer({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_FEEDBACK_PER_HOUR: '40', RATE_LIMIT_PER_ADDRESS: '100000' } });

const docs = () =>
  publishedSite(server(), [
    { type: 'insert_page', ref: 'welcome', title: 'Welcome', slug: 'welcome', markdown: 'Hello. Our lighthouse keeps ships safe.' },
    { type: 'insert_page', ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'The guide to the beacon.' },
  ] as never);

const path = (world: PublishedWorld) => sitePath(world.organizationId, world.siteId);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The hidden fields of the page's feedback form. */
function formOf(html: string): Record<string, string> {
  const form = /<form class="page-feedback" method="post" action="([^"]+)" data-feedback=""[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no feedback form');
  const fields = Object.fromEntries([...form[2]!.matchAll(/<input type="hidden" name="(\w+)" value="([^"]+)">/g)].map((m) => [m[1]!, m[2]!]));
  return { action: form[1]!, ...fields };
}

async function send(visitor: Visitor, world: PublishedWorld, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const { action, ...rest } = formOf((await visitor.get(`/s/${world.siteId}/guide`)).body);
  return visitor.get(action!, { method: 'POST', headers: { ...FORM, ...headers }, body: new URLSearchParams({ ...rest, ...fields }).toString() });
}

describe('the feedback form', () => {
  it('is a plain form under each page, about the page and the revision shown', async () => {
    const world = await docs();
    const page = await new Visitor(world.t.url).get(`/s/${world.siteId}/guide`);
    const { data: space } = await world.admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: world.spaces.guide!.id } } });
    expect(formOf(page.body)).toEqual({ action: `/s/${world.siteId}/_feedback`, space: world.spaces.guide!.id, page: world.spaces.guide!.refs.guide!, revision: space!.revision });
    expect(page.body).toContain('<legend>Was this page helpful?</legend>');
    expect(page.body).toContain('<textarea id="feedback-comment" name="comment" maxlength="1000" rows="2"></textarea>');
    for (const rating of ['bad', 'ok', 'good']) expect(page.body).toContain(`<button type="submit" name="rating" value="${rating}">`);
  });

  it('stores an answer sent without script (a page back) or by the script (JSON), with nothing of the reader', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const plain = await send(visitor, world, { rating: 'good', comment: '  Clear and short.\r\nThanks ' }, { origin: 'http://api.test', 'sec-fetch-site': 'same-origin' });
    expect(plain.status).toBe(201);
    expect(plain.headers['content-type']).toMatch(/^text\/html/);
    expect(plain.body).toContain('<h1 class="page-title">Thank you</h1>');
    expect(plain.body).toContain(`<a href="/s/${world.siteId}/guide">Back to the page</a>`);
    const script = await send(visitor, world, { rating: 'bad' }, { accept: 'application/json' });
    expect(script.status).toBe(201);
    expect(JSON.parse(script.body)).toEqual({ ok: true });
    expect(visitor.cookies.size).toBe(0);

    const { data: space } = await world.admin.client.GET('/v1/spaces/{spaceId}', { params: { path: { spaceId: world.spaces.guide!.id } } });
    const list = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', path(world));
    const item = { object: 'site-feedback', id: expect.stringMatching(/^[A-Za-z0-9]{20}$/), space: world.spaces.guide!.id, page: world.spaces.guide!.refs.guide!, revision: space!.revision, createdAt: expect.any(String) };
    expect(list.data).toEqual({ items: [{ ...item, rating: 'bad' }, { ...item, rating: 'good', comment: 'Clear and short.\nThanks' }], count: 2 });
    // Nothing of the reader in the row: no address, no agent.
    const rows = await world.t.context.db.selectFrom('siteFeedback').selectAll().execute();
    expect(Object.keys(rows[0]!).sort()).toEqual(['comment', 'createdAt', 'id', 'organizationId', 'pageId', 'rating', 'revisionId', 'siteId', 'spaceId']);
  });

  it('refuses a cross-site post (403), a bad form (400), another page (404), another type (415) or method (405), storing nothing', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    expect((await send(visitor, world, { rating: 'good' }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await send(visitor, world, { rating: 'good' }, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await send(visitor, world, { rating: 'good' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(visitor, world, { rating: 'great' })).status).toBe(400);
    expect((await send(visitor, world, {})).status).toBe(400);
    const long = await send(visitor, world, { rating: 'ok', comment: 'x'.repeat(1001) }, { accept: 'application/json' });
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body)).toEqual({ error: { code: 400, message: 'The comment is longer than 1000 characters.' } });
    expect((await send(visitor, world, { rating: 'ok', page: 'NoSuchPage0000000000' })).status).toBe(404);
    expect((await send(visitor, world, { rating: 'ok', space: 'NoSuchSpace000000000' })).status).toBe(404);
    expect((await send(visitor, world, { rating: 'ok', page: '../../etc' })).status).toBe(400);
    const big = await visitor.get(`/s/${world.siteId}/_feedback`, { method: 'POST', headers: FORM, body: `rating=ok&comment=${'y'.repeat(5000)}` });
    expect(big.status).toBe(400);
    const json = await visitor.get(`/s/${world.siteId}/_feedback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"rating":"ok"}' });
    expect(json.status).toBe(415);
    expect((await visitor.get(`/s/${world.siteId}/_feedback`)).status).toBe(405);
    expect((await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', path(world))).data!.count).toBe(0);
  });
});

describe('listSiteFeedback', () => {
  it('filters by page and rating; 403 below admin, 404 for another organization', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    await send(visitor, world, { rating: 'good' });
    await send(visitor, world, { rating: 'bad', page: world.spaces.guide!.refs.welcome! });
    const { client } = world.admin;
    const query = (q: Record<string, string>) => client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', { params: { ...path(world).params, query: q } });
    expect((await query({ rating: 'bad' })).data!.items.map((item) => item.page)).toEqual([world.spaces.guide!.refs.welcome]);
    expect((await query({ pageId: world.spaces.guide!.refs.guide! })).data!.items.map((item) => item.rating)).toEqual(['good']);
    expect((await query({ rating: 'terrible' })).response.status).toBe(400);
    const reader = await createUser(server());
    await addMember(server(), { id: world.organizationId }, reader, 'read');
    expect((await reader.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', path(world))).response.status).toBe(403);
    const other = await createOrganizationWithAdmin(server());
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/feedback', { params: { path: { organizationId: other.organization.id, siteId: world.siteId } } })).response.status).toBe(404);
  });
});

describe('getSiteInsights', () => {
  it('counts views by kind, searches with their zero-result queries and ratings, by day and week and by page', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    const root = `/s/${world.siteId}`;
    for (let i = 0; i < 3; i++) await visitor.get(`${root}/guide`);
    await visitor.get(`${root}/welcome`);
    await visitor.get(`${root}/no-such-page`);
    await visitor.get(`${root}/search?q=Lighthouse`);
    await visitor.get(`${root}/search?q=lighthouse`);
    await visitor.get(`${root}/search?q=zeppelin`);
    await send(visitor, world, { rating: 'good' });
    await send(visitor, world, { rating: 'ok' });
    // An agent's read, as the Markdown endpoint will record it.
    world.t.context.insights.recordView({ organizationId: world.organizationId, siteId: world.siteId, spaceId: world.spaces.guide!.id, pageId: world.spaces.guide!.refs.guide!, kind: 'markdown' });

    const today = new Date().toISOString().slice(0, 10);
    const { data, response } = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', { params: { ...path(world).params, query: { from: today, to: today } } });
    expect(response.status).toBe(200);
    // `send` reads the guide page each time too: 3 + 2 reads of it.
    const counts = { views: { page: 6, markdown: 1, mcp: 0 }, searches: 3, zeroResultSearches: 1, ratings: { bad: 0, ok: 1, good: 1 } };
    expect(data).toEqual({
      from: today,
      to: today,
      interval: 'day',
      totals: counts,
      series: [{ start: today, ...counts }],
      pages: [
        { space: world.spaces.guide!.id, page: world.spaces.guide!.refs.guide!, views: { page: 5, markdown: 1, mcp: 0 }, ratings: { bad: 0, ok: 1, good: 1 } },
        { space: world.spaces.guide!.id, page: world.spaces.guide!.refs.welcome!, views: { page: 1, markdown: 0, mcp: 0 }, ratings: { bad: 0, ok: 0, good: 0 } },
      ],
      topQueries: [
        { query: 'lighthouse', searches: 2 },
        { query: 'zeppelin', searches: 1 },
      ],
      zeroResultQueries: [{ query: 'zeppelin', searches: 1 }],
    });

    // Weeks start on Monday; the default range is the last 30 days, zero-filled.
    const weekly = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', { params: { ...path(world).params, query: { interval: 'week' } } });
    const monday = (day: string) => new Date(Date.parse(day) - ((new Date(day).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    expect(weekly.data!.series.at(-1)).toEqual({ start: monday(today) < weekly.data!.from ? weekly.data!.from : monday(today), ...counts });
    expect(weekly.data!.series.slice(1).every((period) => new Date(period.start).getUTCDay() === 1)).toBe(true);
    expect(weekly.data!.series.reduce((sum, period) => sum + period.views.page, 0)).toBe(6);
    const daily = await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', path(world));
    expect(daily.data!.series).toHaveLength(30);
    expect(daily.data!.to).toBe(today);
  });

  it('refuses a reversed range or one over 366 days (400); 403 below admin; 404 for another organization', async () => {
    const world = await docs();
    const { client } = world.admin;
    const range = (query: Record<string, string>) => client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', { params: { ...path(world).params, query } });
    expect((await range({ from: '2026-02-01', to: '2026-01-01' })).error!.error.issues).toEqual([{ path: '/query/from', message: 'is after `to`' }]);
    expect((await range({ from: '2025-01-01', to: '2026-01-02' })).response.status).toBe(400);
    expect((await range({ from: '2025-01-02', to: '2026-01-02' })).response.status).toBe(200);
    expect((await range({ from: 'yesterday' })).response.status).toBe(400);
    const reader = await createUser(server());
    await addMember(server(), { id: world.organizationId }, reader, 'read');
    expect((await reader.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', path(world))).response.status).toBe(403);
    const other = await createOrganizationWithAdmin(server());
    expect((await other.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}/insights', { params: { path: { organizationId: other.organization.id, siteId: world.siteId } } })).response.status).toBe(404);
  });
});

describe('the insights recorder', () => {
  it('writes nothing per view: counts wait in memory and go out in one upsert that adds to the day’s rows', async () => {
    const world = await docs();
    const { insights, db } = world.t.context;
    await insights.flush();
    const view = { organizationId: world.organizationId, siteId: world.siteId, spaceId: world.spaces.guide!.id, pageId: world.spaces.guide!.refs.welcome!, kind: 'mcp' as const };
    const rows = () => db.selectFrom('sitePageViews').select(['views']).where('siteId', '=', world.siteId).where('kind', '=', 'mcp').execute();
    for (let i = 0; i < 1000; i++) insights.recordView(view);
    expect(await rows()).toEqual([]);
    await insights.flush();
    expect(await rows()).toEqual([{ views: 1000 }]);
    for (let i = 0; i < 5; i++) insights.recordView(view);
    insights.recordSearch({ organizationId: world.organizationId, siteId: world.siteId, query: '  Two   Words ', results: 0 });
    await insights.flush();
    expect(await rows()).toEqual([{ views: 1005 }]);
    expect(await db.selectFrom('siteSearches').select(['query', 'searches', 'zeroResults']).where('siteId', '=', world.siteId).execute()).toEqual([{ query: 'two words', searches: 1, zeroResults: 1 }]);
  });
});

// Last: it spends the address's feedback budget, which every test of this file shares.
describe('the feedback limit', () => {
  it('is charged to the reader’s address: past the hourly limit, 429', async () => {
    const world = await docs();
    const visitor = new Visitor(world.t.url);
    let status = 201;
    let sent = 0;
    while (status === 201 && sent < 60) {
      status = (await send(visitor, world, { rating: 'ok' }, { accept: 'application/json' })).status;
      sent += 1;
    }
    expect(status).toBe(429);
    // This file's earlier tests used part of the same address's budget (40 an hour here).
    expect(sent).toBeLessThanOrEqual(41);
  });
});
