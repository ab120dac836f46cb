// A published site that is not there for its visitor (issue 25, F8): an unknown name, a malformed
// address, an unpublished site and a share-link site without its key answer the same bytes — status,
// every header, body — whatever the path (pages, robots.txt, sitemap.xml, files, icons, search), the
// method or the parameters (`visitor.*`, a wrong key, a visitor token). Compared byte for byte, so that
// no answer tells that a site exists (basenames and site ids cannot be enumerated).
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/harness.js';
import { publishedSite, sitePath, Visitor, type Answer } from '../support/published.js';

const server = useTestServer();

/** What a visitor can compare of an answer, less what differs on every request. */
function bytesOf(answer: Answer) {
  const { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body };
}

const PAGES = [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Hello, visitor.' }] as never;

describe('a site that is not there for the visitor', () => {
  it('answers byte-identical 404s: unknown, malformed, unpublished, share-link without its key', async () => {
    const t = server();
    const unpublished = await publishedSite(t, PAGES, { publish: false, title: 'Secret Plans' });
    await unpublished.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(unpublished.organizationId, unpublished.siteId), body: { basename: 'secret-plans' } });
    const shared = await publishedSite(t, PAGES, { visibility: 'share-link', title: 'Partner Docs' });
    const { data: link } = await shared.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/share-links', { ...sitePath(shared.organizationId, shared.siteId), body: { label: 'Partners' } });

    const visitor = new Visitor(t.url);
    const reference = bytesOf(await visitor.get('/s/no-such-site/welcome'));
    expect(reference.status).toBe(404);
    expect(reference.body).toContain('There is nothing published at this address.');
    // Styled by a stylesheet every path below /s/ serves (no site named, no query): it is there.
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(reference.body)?.[1];
    expect(stylesheet).toMatch(/^\/s\/_\/_assets\/bare-[0-9a-f]{12}\.css$/);
    const css = await visitor.get(stylesheet!);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

    const absent = [
      '/s/no-such-site/',
      '/s/no-such-site/robots.txt',
      '/s/no_such!site/welcome',
      '/s/%E0%A4%A/welcome',
      '/s/',
      `/s/${unpublished.siteId}/`,
      `/s/${unpublished.siteId}/robots.txt`,
      `/s/${unpublished.siteId}/sitemap.xml`,
      '/s/secret-plans/welcome',
      `/s/${shared.siteId}/welcome`,
      `/s/${shared.siteId}/robots.txt`,
      `/s/${shared.siteId}/sitemap.xml`,
      `/s/${shared.siteId}/search?q=hello`,
      `/s/${shared.siteId}/_favicon/0123456789abcdef`,
      `/s/${shared.siteId}/_files/a/b`,
      `/s/${shared.siteId}/_assets/theme-000000000000.css`,
      `/s/${shared.siteId}/welcome?visitor.plan=pro`,
      `/s/${shared.siteId}/welcome?jwt_token=a.b.c`,
      `/s/${shared.siteId}/welcome?shareKey=${'x'.repeat(40)}&visitor.plan=pro`,
    ];
    for (const path of absent) expect(bytesOf(await visitor.get(path)), path).toEqual(reference);
    // Another method: the same answer as for an unknown site (not a 405 that tells a site is there).
    const post = bytesOf(await visitor.get('/s/no-such-site/welcome', { method: 'POST' }));
    for (const site of [unpublished, shared]) expect(bytesOf(await visitor.get(`/s/${site.siteId}/welcome`, { method: 'POST' })), site.siteId).toEqual(post);
    const head = bytesOf(await visitor.get('/s/no-such-site/welcome', { method: 'HEAD' }));
    for (const site of [unpublished, shared]) expect(bytesOf(await visitor.get(`/s/${site.siteId}/robots.txt`, { method: 'HEAD' })), site.siteId).toEqual(head);
    expect(visitor.cookies.size).toBe(0);

    // In the visitor's language (the site's would tell which site it is): still the same bytes for every reason.
    const japanese = { headers: { 'Accept-Language': 'ja-JP,ja;q=0.9,en;q=0.5' } };
    const inJapanese = bytesOf(await visitor.get('/s/no-such-site/welcome', japanese));
    expect(inJapanese.body).toContain('<html lang="ja">');
    expect(inJapanese.body).toContain('このアドレスには何も公開されていません。');
    expect(inJapanese.body).not.toContain('There is nothing published');
    expect(inJapanese.headers.vary).toBe('Accept-Language');
    for (const path of [`/s/${unpublished.siteId}/`, '/s/secret-plans/welcome', `/s/${shared.siteId}/welcome`, `/s/${shared.siteId}/search?q=hello`]) {
      expect(bytesOf(await visitor.get(path, japanese)), path).toEqual(inJapanese);
    }
    // A language the table lacks reads English.
    expect(bytesOf(await visitor.get(`/s/${shared.siteId}/welcome`, { headers: { 'Accept-Language': 'pt-BR' } }))).toEqual(reference);

    // The same addresses do show the sites to whom they are there: the comparison above could fail.
    const partner = new Visitor(t.url);
    expect((await partner.follow(`/s/${shared.siteId}/welcome?shareKey=${link!.key}`)).status).toBe(200);
    expect((await partner.get(`/s/${shared.siteId}/robots.txt`)).status).toBe(200);
    await unpublished.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(unpublished.organizationId, unpublished.siteId));
    expect((await visitor.get('/s/secret-plans/welcome')).body).toContain('Secret Plans');
  });
});
