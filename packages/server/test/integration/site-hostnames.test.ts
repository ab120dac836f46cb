// Custom hostnames of sites prove control through DNS before they are served (issue 25, F6), against a
// DNS server of the test's own on a local port (SITE_DNS_SERVERS): a claim is pending with the records
// to create; `verifySiteHostname` and the job find them; only then does the site answer on the hostname
// and name it in `urls.published`. Claims of another organization never block nor learn anything, and
// whoever's DNS names its token holds the hostname. The server's own hostnames cannot be claimed.
import { afterAll, describe, expect, it } from 'vitest';
import { verifyDueHostnames } from '../../src/areas/sites/hostnames.service.js';
import { TestDnsServer } from '../support/dns-server.js';
import { createOrganizationWithAdmin } from '../support/factories.js';
import { useTestServer } from '../support/harness.js';
import { publishedSite, sitePath, Visitor, type Answer, type PublishedWorld } from '../support/published.js';
import { claimHostname, createSite } from '../support/sites.js';

const dns = await TestDnsServer.start();
afterAll(() => dns.close());
const server = useTestServer({ env: { SITE_DNS_SERVERS: dns.address, SITE_CNAME_DOMAIN: 'sites.example.test', SERVER_HOSTNAMES: 'api.internal.example.test' } });

const PAGES = [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: 'Hello, visitor.' }] as never;
const TOKEN = /^[0-9a-f]{32}$/;

const site = (world: PublishedWorld) => sitePath(world.organizationId, world.siteId);
const patch = (world: PublishedWorld, body: { hostname: string | null }) => world.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...site(world), body });
const verify = (world: PublishedWorld) => world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/hostname/verify', site(world));
const read = async (world: PublishedWorld) => (await world.admin.client.GET('/v1/orgs/{organizationId}/sites/{siteId}', site(world))).data!;
const tokenOf = (records: Array<{ type: string; value: string }>) => records.find((record) => record.type === 'TXT')!.value.split('=')[1]!;

describe('claiming a hostname', () => {
  it('starts pending with the records to create; the site is not served on it and its address stays /s/…', async () => {
    const world = await publishedSite(server(), PAGES);
    const { data, response } = await patch(world, { hostname: 'docs.pending.test' });
    expect(response.status).toBe(200);
    const token = tokenOf(data!.hostnameVerification!.records);
    expect(token).toMatch(TOKEN);
    expect(data!.hostname).toBe('docs.pending.test');
    expect(data!.hostnameVerification).toEqual({
      status: 'pending',
      records: [
        { type: 'TXT', name: '_content-workspace.docs.pending.test', value: `content-workspace-verification=${token}` },
        { type: 'CNAME', name: 'docs.pending.test', value: `${token}.sites.example.test` },
      ],
    });
    expect(data!.urls.published).toBe(`http://api.test/s/${world.siteId}`);
    // The Host names no served site: the API answers it, as any unknown host.
    const visit = await new Visitor(world.t.url).get('/welcome', { host: 'docs.pending.test' });
    expect(visit.headers['content-type']).toMatch(/^application\/json/);
    expect((await new Visitor(world.t.url).get(`/s/${world.siteId}/welcome`)).status).toBe(200);
    // The same hostname again changes nothing; another one is a new claim with a new token.
    expect(tokenOf((await patch(world, { hostname: 'docs.pending.test' })).data!.hostnameVerification!.records)).toBe(token);
    expect(tokenOf((await patch(world, { hostname: 'docs2.pending.test' })).data!.hostnameVerification!.records)).not.toBe(token);
  });

  it('refuses the server\'s own hostnames, IP addresses and names too long for their record (400); 409 when another site of the organization has it', async () => {
    const world = await publishedSite(server(), PAGES);
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(38)}.test`;
    expect(long.length).toBe(235);
    for (const [hostname, message] of [
      ['api.internal.example.test', "is one of this server's own hostnames"],
      ['10.20.30.40', 'is an IP address, not a hostname'],
      [long, 'is longer than 234 characters (its verification record must fit in a DNS name)'],
    ] as const) {
      const { error, response } = await patch(world, { hostname });
      expect(response.status, hostname).toBe(400);
      expect(error).toEqual({ error: { code: 400, message: expect.any(String), issues: [{ path: '/body/hostname', message }] } });
    }
    await patch(world, { hostname: 'docs.taken.test' });
    const other = await createSite(world.admin.client, world.organizationId, { title: 'Other site' });
    const taken = await world.admin.client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(world.organizationId, other.id), body: { hostname: 'docs.taken.test' } });
    expect(taken.response.status).toBe(409);
    expect((await read(world)).hostname).toBe('docs.taken.test');
    // A request on one of the server's own names is the API's, whatever the path.
    expect((await new Visitor(world.t.url).get('/welcome', { host: 'api.internal.example.test' })).headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('verifying a hostname', () => {
  it('stays pending with what the check found until the TXT record holds the token; then the site is served there', async () => {
    const world = await publishedSite(server(), PAGES);
    const token = tokenOf((await patch(world, { hostname: 'docs.verify.test' })).data!.hostnameVerification!.records);

    const missing = await verify(world);
    expect(missing.response.status).toBe(200);
    expect(missing.data!.hostnameVerification).toMatchObject({ status: 'pending', checkedAt: expect.any(String), problem: 'No TXT record at _content-workspace.docs.verify.test' });
    dns.setTxt('_content-workspace.docs.verify.test', ['content-workspace-verification=0123456789abcdef0123456789abcdef']);
    expect((await verify(world)).data!.hostnameVerification!.problem).toBe(`The TXT record at _content-workspace.docs.verify.test does not hold content-workspace-verification=${token}`);

    // Found among other values, split into strings as DNS may: verified.
    dns.setTxt('_content-workspace.docs.verify.test', ['google-site-verification=x'], ['content-workspace-verification=', token]);
    const verified = await verify(world);
    expect(verified.data!.hostnameVerification).toEqual({
      status: 'verified',
      records: expect.any(Array),
      checkedAt: expect.any(String),
      verifiedAt: expect.any(String),
    });
    expect(verified.data!.urls.published).toBe('http://docs.verify.test');
    const page = await new Visitor(world.t.url).get('/welcome', { host: 'docs.verify.test' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<link rel="canonical" href="http://docs.verify.test/welcome">');
    // Checked again: a verified hostname is answered as it is, with no lookup.
    const asked = dns.questions.length;
    expect((await verify(world)).data!.hostnameVerification!.status).toBe('verified');
    expect(dns.questions.length).toBe(asked);

    // Removed: no longer served, and nothing left to verify.
    await patch(world, { hostname: null });
    expect((await new Visitor(world.t.url).get('/welcome', { host: 'docs.verify.test' })).headers['content-type']).toMatch(/^application\/json/);
    expect((await verify(world)).response.status).toBe(409);
  });

  it('a CNAME to {token}.{SITE_CNAME_DOMAIN} proves control too; a CNAME to the server itself does not', async () => {
    const world = await publishedSite(server(), PAGES);
    const token = tokenOf((await patch(world, { hostname: 'docs.cname.test' })).data!.hostnameVerification!.records);
    dns.setCname('docs.cname.test', 'api.test');
    expect((await verify(world)).data!.hostnameVerification!.status).toBe('pending');
    dns.setCname('docs.cname.test', `${token.toUpperCase()}.sites.example.test.`);
    expect((await verify(world)).data!.hostnameVerification!.status).toBe('verified');
  });

  it('a lookup that gets no answer gives up, leaving the claim pending with the timeout', async () => {
    const world = await publishedSite(server(), PAGES);
    await patch(world, { hostname: 'docs.silent.test' });
    dns.silent = true;
    try {
      expect((await verify(world)).data!.hostnameVerification!.problem).toBe('The DNS lookup of _content-workspace.docs.silent.test timed out');
    } finally {
      dns.silent = false;
    }
  });

  it('another organization\'s claim of a served hostname blocks nothing and learns nothing; the hostname goes to whoever\'s token the DNS shows', async () => {
    const owner = await publishedSite(server(), PAGES, { title: 'Owner Docs' });
    await claimHostname(owner.admin.client, owner.organizationId, owner.siteId, 'docs.contested.test', dns);

    const rival = await publishedSite(server(), PAGES, { title: 'Rival Docs' });
    const claimed = await patch(rival, { hostname: 'docs.contested.test' });
    expect(claimed.response.status).toBe(200);
    const rivalToken = tokenOf(claimed.data!.hostnameVerification!.records);
    expect((await verify(rival)).data!.hostnameVerification).toMatchObject({ status: 'pending', problem: `The TXT record at _content-workspace.docs.contested.test does not hold content-workspace-verification=${rivalToken}` });
    expect((await new Visitor(owner.t.url).get('/welcome', { host: 'docs.contested.test' })).body).toContain('Owner Docs');

    // The hostname's DNS now names the rival's claim: it moves, and the owner's claim is pending again.
    dns.setTxt('_content-workspace.docs.contested.test', [`content-workspace-verification=${rivalToken}`]);
    expect((await verify(rival)).data!.hostnameVerification!.status).toBe('verified');
    expect((await read(owner)).hostnameVerification).toMatchObject({ status: 'pending', problem: 'Another site proved control of this hostname' });
    expect((await read(owner)).urls.published).toBe(`http://api.test/s/${owner.siteId}`);
    expect((await new Visitor(owner.t.url).get('/welcome', { host: 'docs.contested.test' })).body).toContain('Rival Docs');

    // Each organization's audit log (and webhooks) has the site as it now is, changed by the server.
    for (const [world, status] of [[rival, 'verified'], [owner, 'pending']] as const) {
      const { data } = await world.admin.client.GET('/v1/orgs/{organizationId}/events', { params: { path: { organizationId: world.organizationId }, query: { type: ['site.updated'], limit: 1 } } });
      const event = data!.items[0]!;
      expect(event).toMatchObject({ type: 'site.updated', actor: { type: 'system' }, data: { object: { id: world.siteId, hostnameVerification: { status } } } });
    }
  });

  it('on a verified hostname, an unpublished site answers the bytes of any absent site', async () => {
    const world = await publishedSite(server(), PAGES);
    await claimHostname(world.admin.client, world.organizationId, world.siteId, 'docs.absent.test', dns);
    await world.admin.client.POST('/v1/orgs/{organizationId}/sites/{siteId}/unpublish', site(world));
    const bytesOf = ({ status, headers: { date: _date, 'x-request-id': _id, connection: _connection, 'keep-alive': _keepAlive, ...headers }, body }: Answer) => ({ status, headers, body });
    const visitor = new Visitor(world.t.url);
    // Absent pages differ only by where their stylesheet is linked from (at the hostname's root, or
    // below /s/ for a path): the form of the address, never the site or the reason.
    const onHost = bytesOf(await visitor.get('/welcome', { host: 'docs.absent.test' }));
    const onPath = bytesOf(await visitor.get('/s/no-such-site/welcome'));
    const { 'content-length': _hostLength, ...hostHeaders } = onHost.headers;
    const { 'content-length': _pathLength, ...pathHeaders } = onPath.headers;
    expect(onHost.body).toContain('href="/_assets/bare-');
    expect({ ...onHost, headers: hostHeaders, body: onHost.body.replace('href="/_assets/', 'href="/s/_/_assets/') }).toEqual({ ...onPath, headers: pathHeaders });
  });
});

describe('the verification job', () => {
  it('checks the pending claims that are due, and a claim again only after its interval', async () => {
    const t = server();
    const { admin, organization } = await createOrganizationWithAdmin(t);
    const created = await createSite(admin.client, organization.id, { title: 'Job site' });
    const world = { t, admin, organizationId: organization.id, siteId: created.id, spaces: {} } satisfies PublishedWorld;
    const token = tokenOf((await patch(world, { hostname: 'docs.job.test' })).data!.hostnameVerification!.records);
    // Other tests' claims may be due too: run until none is.
    while ((await verifyDueHostnames(t.context)) > 0);
    expect((await read(world)).hostnameVerification).toMatchObject({ status: 'pending', checkedAt: expect.any(String), problem: 'No TXT record at _content-workspace.docs.job.test' });

    dns.setTxt('_content-workspace.docs.job.test', [`content-workspace-verification=${token}`]);
    // Checked a moment ago: not due before a minute.
    expect(await verifyDueHostnames(t.context)).toBe(0);
    expect((await read(world)).hostnameVerification!.status).toBe('pending');
    await t.db.updateTable('sites').set({ hostnameCheckedAt: new Date(Date.now() - 61_000) }).where('id', '=', created.id).execute();
    expect(await verifyDueHostnames(t.context)).toBe(1);
    expect((await read(world)).hostnameVerification!.status).toBe('verified');
  });
});
