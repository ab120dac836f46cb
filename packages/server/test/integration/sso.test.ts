// Signing in through a SAML provider: the start redirect (a signed AuthnRequest) and the assertion
// consumer service (responses signed by the test identity provider's key, and every way one can fail).
import { createPublicKey, verify } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '@content-workspace/contract';
import { loadServerKeys } from '../../src/keys.js';
import { useTestServer } from '../support/harness.js';
import { addTeamMember, createMember, createOrganization, createSamlProvider, createTeam, createUser, type TestUser } from '../support/factories.js';
import { expectedMember } from '../support/people.js';
import { IDP_SSO_URL, OTHER_KEY, samlResponse, samlResponseXml, type ResponseOptions } from '../support/saml.js';

const server = useTestServer();

type Service = components['schemas']['SamlProvider']['service'];
type World = { admin: TestUser; organization: { id: string }; team: { id: string }; provider: { id: string }; service: Service };

const providerPath = (organizationId: string, samlProviderId: string) => ({ params: { path: { organizationId, samlProviderId } } });

/** An organization of `corp.test` with an active provider (default role `edit`, default team). */
async function buildWorld(values: Parameters<typeof createSamlProvider>[2] = {}): Promise<World> {
  const t = server();
  const admin = await createUser(t);
  const organization = await createOrganization(t, admin, { emailDomains: ['corp.test'] });
  const team = await createTeam(t, organization, [], 'Everyone');
  const provider = await createSamlProvider(t, organization, { label: 'Corp IdP', defaultRole: 'edit', defaultTeamId: team.id, ...values });
  const { data } = await admin.client.GET('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(organization.id, provider.id));
  return { admin, organization, team, provider, service: data!.service };
}

function start(w: World, query: { RelayState?: string } = {}, providerId = w.provider.id) {
  return server().client().GET('/sso/orgs/{organizationId}/saml/{samlProviderId}/start', {
    params: { path: { organizationId: w.organization.id, samlProviderId: providerId }, query },
    redirect: 'manual',
  });
}

function post(w: World, form: { SAMLResponse: string; RelayState?: string }, providerId = w.provider.id) {
  return server().client().POST('/sso/orgs/{organizationId}/saml/{samlProviderId}/acs', {
    ...providerPath(w.organization.id, providerId),
    body: form,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
}

const respond = (w: World, options: Omit<ResponseOptions, 'service'> = {}) => samlResponse({ service: w.service, ...options });

async function tokenCount(): Promise<number> {
  const row = await server().db.selectFrom('apiTokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function userByEmail(email: string) {
  return server().db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The token in a sign-in redirect's fragment, after checking the address it goes to. */
function tokenFrom(location: string | null, expectedBase: string): string {
  expect(location).toMatch(/#token=cw_[A-Za-z0-9]+$/);
  const [base, fragment] = location!.split('#');
  expect(base).toBe(expectedBase);
  return fragment!.slice('token='.length);
}

describe('GET /sso/orgs/{organizationId}/saml/{samlProviderId}/start', () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  });

  /** The raw query parameters of a redirect, as they appear (still encoded), in order. */
  function rawQuery(location: string): Array<[string, string]> {
    return location
      .slice(location.indexOf('?') + 1)
      .split('&')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]);
  }

  async function servicePublicKey() {
    const row = await server().db.selectFrom('serverKeys').select('material').where('kind', '=', 'samlServiceProvider').executeTakeFirstOrThrow();
    return createPublicKey(Buffer.from(row.material, 'base64'));
  }

  it('redirects to the identity provider with an AuthnRequest signed by the stored service-provider key', async () => {
    const { response } = await start(w, { RelayState: 'http://api.test/app/welcome?tab=1' });
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const location = response.headers.get('location')!;
    expect(location.startsWith(`${IDP_SSO_URL}?SAMLRequest=`)).toBe(true);

    const params = rawQuery(location);
    expect(params.map(([name]) => name)).toEqual(['SAMLRequest', 'RelayState', 'SigAlg', 'Signature']);
    const value = (name: string) => decodeURIComponent(params.find(([key]) => key === name)![1]);
    expect(value('RelayState')).toBe('http://api.test/app/welcome?tab=1');
    expect(value('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    // SAML bindings §3.4.4.1: the signature covers the query up to SigAlg, as sent.
    const signed = location.slice(location.indexOf('?') + 1, location.indexOf('&Signature='));
    expect(verify('sha256', Buffer.from(signed), await servicePublicKey(), Buffer.from(value('Signature'), 'base64'))).toBe(true);

    const request = inflateRawSync(Buffer.from(value('SAMLRequest'), 'base64')).toString('utf8');
    expect(request).toMatch(/^<\?xml[^>]*>\s*<samlp:AuthnRequest /);
    expect(request).toContain(`AssertionConsumerServiceURL="${w.service.acsURL}"`);
    expect(request).toContain(`Destination="${IDP_SSO_URL}"`);
    expect(request).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(request).toMatch(new RegExp(`<saml:Issuer[^>]*>${w.service.entityID}</saml:Issuer>`));
    expect(request).toMatch(/ID="_[0-9a-f]+"/);
    expect(w.service.entityID).toBe(`http://api.test/sso/orgs/${w.organization.id}/saml/${w.provider.id}`);
  });

  it('signs without RelayState when none is given, resolves a path against PUBLIC_URL, and keeps the provider’s own query', async () => {
    const bare = (await start(w)).response.headers.get('location')!;
    expect(rawQuery(bare).map(([name]) => name)).toEqual(['SAMLRequest', 'SigAlg', 'Signature']);
    const signed = bare.slice(bare.indexOf('?') + 1, bare.indexOf('&Signature='));
    const signature = Buffer.from(decodeURIComponent(bare.slice(bare.indexOf('&Signature=') + 11)), 'base64');
    expect(verify('sha256', Buffer.from(signed), await servicePublicKey(), signature)).toBe(true);

    const relative = (await start(w, { RelayState: "/app/it's (here)" })).response.headers.get('location')!;
    expect(rawQuery(relative).find(([name]) => name === 'RelayState')![1]).toBe(encodeURIComponent("http://api.test/app/it's%20(here)"));

    const tenant = await createSamlProvider(server(), w.organization, { ssoUrl: 'https://idp.example.test/sso?tenant=acme#ignored' });
    const withQuery = (await start(w, {}, tenant.id)).response.headers.get('location')!;
    expect(withQuery.startsWith('https://idp.example.test/sso?tenant=acme&SAMLRequest=')).toBe(true);
    expect(withQuery).not.toContain('#');
  });

  it('uses one key, generated once and stored: another instance loads the same one', async () => {
    const again = await loadServerKeys(server().db);
    expect(again.samlServiceProvider.equals(server().context.keys.samlServiceProvider)).toBe(true);
    expect(again.samlServiceProvider.toString()).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('400 for a RelayState outside this server’s origin', async () => {
    for (const relayState of ['https://evil.test/steal', '//evil.test/x', 'http://api.test.evil.test/', 'https://api.test/', 'javascript:alert(1)']) {
      const { response, error } = await start(w, { RelayState: relayState });
      expect(response.status, relayState).toBe(400);
      expect(error?.error.issues).toEqual([{ path: '/query/RelayState', message: 'must be an address on http://api.test' }]);
    }
  });

  it('404 for a pending provider, an unknown one, or one of another organization', async () => {
    const pending = await createSamlProvider(server(), w.organization, { ssoUrl: null });
    expect((await start(w, {}, pending.id)).response.status).toBe(404);
    expect((await start(w, {}, 'NoSuchProvider')).response.status).toBe(404);
    const other = await buildWorld();
    expect((await start(w, {}, other.provider.id)).response.status).toBe(404);
  });

  it('400 for malformed parameters', async () => {
    const { response, error } = await start(w, { RelayState: 'x'.repeat(2049) });
    expect(response.status).toBe(400);
    expect(error?.error.issues?.map((issue) => issue.path)).toEqual(['/query/RelayState']);
  });
});

describe('POST /sso/orgs/{organizationId}/saml/{samlProviderId}/acs', () => {
  it('signs in an existing member: SSO member, same role, default team, a token in the fragment of RelayState', async () => {
    const w = await buildWorld();
    const member = await createMember(server(), w.organization, 'read');
    const { response } = await post(w, { SAMLResponse: respond(w, { email: member.user.email.toUpperCase() }), RelayState: 'http://api.test/app/home' });
    expect(response.status).toBe(303);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const token = tokenFrom(response.headers.get('location'), 'http://api.test/app/home');

    const me = await server().client(token).GET('/v1/user');
    expect(me.data?.id).toBe(member.user.id);
    // Listed through the member's personal token (an SSO token may not list tokens: sso-scope.test.ts).
    const tokens = await member.client.GET('/v1/user/tokens');
    const issued = tokens.data!.items.find((item) => item.label === 'SSO: Corp IdP')!;
    expect(issued.organization).toBe(w.organization.id);
    expect(new Date(issued.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 13 * 86_400_000);
    expect(new Date(issued.expiresAt!).getTime()).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000);

    const read = await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: w.organization.id, userId: member.user.id } } });
    expect(read.data).toEqual(expectedMember(member, 'read', { sso: true, teams: 1 }));
    const teamMembers = await w.admin.client.GET('/v1/orgs/{organizationId}/teams/{teamId}/members', { params: { path: { organizationId: w.organization.id, teamId: w.team.id } } });
    expect(teamMembers.data?.items.map((entry) => [entry.organization.id, entry.team.role])).toEqual([[member.user.id, 'member']]);
  });

  it('creates a user of an e-mail domain of the organization, with the provider’s default role, and goes to the app without RelayState', async () => {
    const w = await buildWorld();
    const { response } = await post(w, { SAMLResponse: respond(w, { email: 'new.person@Corp.test', displayName: 'New Person', sign: 'response' }) });
    expect(response.status).toBe(303);
    const token = tokenFrom(response.headers.get('location'), 'http://app.test/');
    const me = await server().client(token).GET('/v1/user');
    expect(me.data).toMatchObject({ email: 'new.person@Corp.test', displayName: 'New Person' });
    const read = await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: w.organization.id, userId: me.data!.id } } });
    expect(read.data).toMatchObject({ id: me.data!.id, role: 'edit', sso: true, teams: 1 });
  });

  it('a provider without a default role makes newcomers guests; the e-mail may be the NameID alone', async () => {
    const w = await buildWorld({ defaultRole: null, defaultTeamId: null });
    const { response } = await post(w, { SAMLResponse: respond(w, { email: 'guest@corp.test', emailInNameIdOnly: true }) });
    expect(response.status).toBe(303);
    const user = (await userByEmail('guest@corp.test'))!;
    expect(user.displayName).toBe('guest');
    const read = await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: w.organization.id, userId: user.id } } });
    expect(read.data).toMatchObject({ role: null, sso: true, teams: 0 });
  });

  it('an SSO member is not put back in the default team; an account the provider created may join again after its removal', async () => {
    const w = await buildWorld();
    const email = 'returning@corp.test';
    expect((await post(w, { SAMLResponse: respond(w, { email }) })).response.status).toBe(303);
    const user = (await userByEmail(email))!;
    expect(user.createdByOrganizationId).toBe(w.organization.id);
    const memberPath = { params: { path: { organizationId: w.organization.id, userId: user.id } } };
    expect((await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath)).data).toMatchObject({ role: 'edit', sso: true, teams: 1 });

    await w.admin.client.DELETE('/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', { params: { path: { organizationId: w.organization.id, teamId: w.team.id, userId: user.id } } });
    expect((await post(w, { SAMLResponse: respond(w, { email }) })).response.status).toBe(303);
    expect((await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath)).data).toMatchObject({ role: 'edit', sso: true, teams: 0 });

    await w.admin.client.DELETE('/v1/orgs/{organizationId}/members/{userId}', memberPath);
    expect((await post(w, { SAMLResponse: respond(w, { email }) })).response.status).toBe(303);
    expect((await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', memberPath)).data).toMatchObject({ role: 'edit', sso: true, teams: 1 });
  });

  it('accepts the form as browsers and identity providers post it (charset parameter, no token)', async () => {
    const w = await buildWorld();
    const member = await createMember(server(), w.organization, 'read');
    const response = await fetch(`${server().url}/sso/orgs/${w.organization.id}/saml/${w.provider.id}/acs`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      body: new URLSearchParams({ SAMLResponse: respond(w, { email: member.user.email }), RelayState: 'http://api.test/app' }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    tokenFrom(response.headers.get('location'), 'http://api.test/app');
  });

  it('a member disabled by SSO enforcement can use the organization’s content after signing in', async () => {
    const w = await buildWorld();
    const member = await createMember(server(), w.organization, 'edit');
    await w.admin.client.PATCH('/v1/orgs/{organizationId}', { params: { path: { organizationId: w.organization.id } }, body: { sso: true } });
    const spaces = () => member.client.GET('/v1/orgs/{organizationId}/spaces', { params: { path: { organizationId: w.organization.id } } });
    expect((await spaces()).response.status).toBe(403);
    expect((await post(w, { SAMLResponse: respond(w, { email: member.user.email }) })).response.status).toBe(303);
    expect((await spaces()).response.status).toBe(200);
  });

  describe('refusals: nothing is created', () => {
    let w: World;
    beforeAll(async () => {
      w = await buildWorld();
    });

    async function expectRefused(form: { SAMLResponse: string; RelayState?: string }, status: number, message: RegExp | string, email?: string) {
      const before = await tokenCount();
      const { response, error } = await post(w, form);
      expect(response.status).toBe(status);
      expect(response.headers.get('location')).toBeNull();
      expect(error?.error.code).toBe(status);
      if (typeof message === 'string') expect(error?.error.message).toBe(message);
      else expect(error?.error.message).toMatch(message);
      expect(await tokenCount()).toBe(before);
      if (email) expect(await userByEmail(email)).toBeUndefined();
    }

    it('400 for a response signed with another key', async () => {
      await expectRefused({ SAMLResponse: respond(w, { email: 'wrong.key@corp.test', key: OTHER_KEY }) }, 400, /^SAML response refused: Invalid signature/, 'wrong.key@corp.test');
      await expectRefused({ SAMLResponse: respond(w, { email: 'wrong.key@corp.test', key: OTHER_KEY, sign: 'response' }) }, 400, /^SAML response refused: Invalid signature/, 'wrong.key@corp.test');
    });

    it('400 for an unsigned response, and for a signed one changed afterwards', async () => {
      await expectRefused({ SAMLResponse: respond(w, { email: 'unsigned@corp.test', sign: 'none' }) }, 400, /^SAML response refused: Invalid signature/, 'unsigned@corp.test');
      const signed = Buffer.from(respond(w, { email: 'honest@corp.test' }), 'base64').toString('utf8');
      const tampered = Buffer.from(signed.replaceAll('honest@corp.test', 'mallory@corp.test')).toString('base64');
      await expectRefused({ SAMLResponse: tampered }, 400, /^SAML response refused: Invalid signature/, 'mallory@corp.test');
    });

    it('400 for an expired or not yet valid assertion, and for one without an expiry', async () => {
      const expired = respond(w, { email: 'late@corp.test', notBeforeMs: -20 * 60_000, notOnOrAfterMs: -10 * 60_000 });
      await expectRefused({ SAMLResponse: expired }, 400, /^SAML response refused: SAML assertion expired/, 'late@corp.test');
      const early = respond(w, { email: 'early@corp.test', notBeforeMs: 10 * 60_000, notOnOrAfterMs: 20 * 60_000 });
      await expectRefused({ SAMLResponse: early }, 400, /^SAML response refused: SAML assertion not yet valid/, 'early@corp.test');
      await expectRefused({ SAMLResponse: respond(w, { email: 'forever@corp.test', noExpiry: true }) }, 400, /^SAML response refused: .*NotOnOrAfter/, 'forever@corp.test');
    });

    it('400 for another audience or another issuer', async () => {
      const other = await buildWorld();
      await expectRefused({ SAMLResponse: respond(w, { email: 'a@corp.test', audience: other.service.entityID }) }, 400, /^SAML response refused: SAML assertion audience mismatch/, 'a@corp.test');
      await expectRefused({ SAMLResponse: respond(w, { email: 'b@corp.test', issuer: 'https://other-idp.example.test' }) }, 400, "SAML response refused: the issuer is not the provider's entity ID", 'b@corp.test');
      // A response made for another provider (its audience) is refused at this one even with the same identity provider.
      await expectRefused({ SAMLResponse: samlResponse({ service: other.service, email: 'c@corp.test' }) }, 400, /audience mismatch/, 'c@corp.test');
    });

    it('400 for garbage, and for a response without an e-mail', async () => {
      await expectRefused({ SAMLResponse: 'not base64 XML' }, 400, /^SAML response refused: /);
      const noEmail = Buffer.from(samlResponseXml({ service: w.service, email: 'not-an-email', emailInNameIdOnly: true })).toString('base64');
      await expectRefused({ SAMLResponse: noEmail }, 400, /^SAML response refused: Invalid signature/);
      await expectRefused({ SAMLResponse: respond(w, { email: 'not-an-email' }) }, 400, 'SAML response refused: the assertion names no e-mail address');
    });

    it('403 for an e-mail outside the organization’s members and domains, for another organization’s user, and for any account made elsewhere', async () => {
      await expectRefused({ SAMLResponse: respond(w, { email: 'someone@elsewhere.test' }) }, 403, 'This e-mail address may not sign in to this organization', 'someone@elsewhere.test');
      // An existing account of no organization, in the domain: the provider would take it over.
      const loner = await createUser(server(), { email: 'loner@corp.test' });
      await expectRefused({ SAMLResponse: respond(w, { email: loner.user.email }) }, 403, 'This e-mail address may not sign in to this organization');
      expect(await server().db.selectFrom('organizationMembers').select('organizationId').where('userId', '=', loner.user.id).execute()).toEqual([]);
      // A user of another organization is never signed in by this organization's provider, even in its domain.
      const stranger = await createUser(server(), { email: 'stranger@corp.test' });
      await createOrganization(server(), stranger);
      await expectRefused({ SAMLResponse: respond(w, { email: stranger.user.email }) }, 403, 'This e-mail address may not sign in to this organization');
      const memberships = await server().db.selectFrom('organizationMembers').select('organizationId').where('userId', '=', stranger.user.id).execute();
      expect(memberships.map((row) => row.organizationId)).not.toContain(w.organization.id);
    });

    it('400 for a RelayState outside this server’s origin, before the assertion is used', async () => {
      const response = respond(w, { email: 'relay@corp.test' });
      for (const relayState of ['https://evil.test/', '//evil.test/', 'http://app.test/']) {
        const before = await tokenCount();
        const refused = await post(w, { SAMLResponse: response, RelayState: relayState });
        expect(refused.response.status).toBe(400);
        expect(refused.error?.error.issues).toEqual([{ path: '/body/RelayState', message: 'must be an address on http://api.test' }]);
        expect(await tokenCount()).toBe(before);
      }
      expect((await post(w, { SAMLResponse: response, RelayState: '/app' })).response.status).toBe(303);
    });

    it('404 for a pending or unknown provider', async () => {
      const pending = await createSamlProvider(server(), w.organization, { certificate: null });
      await expect(post(w, { SAMLResponse: respond(w) }, pending.id).then((r) => r.response.status)).resolves.toBe(404);
      await expect(post(w, { SAMLResponse: respond(w) }, 'NoSuchProvider').then((r) => r.response.status)).resolves.toBe(404);
    });

    it('400 for a form without SAMLResponse or with unknown fields; 415 for JSON', async () => {
      const empty = await post(w, {} as never);
      expect(empty.response.status).toBe(400);
      expect(empty.error?.error.issues?.map((issue) => issue.path)).toEqual(['/body/SAMLResponse']);
      const extra = await post(w, { SAMLResponse: 'x', Other: 'y' } as never);
      expect(extra.response.status).toBe(400);
      const json = await server().client().POST('/sso/orgs/{organizationId}/saml/{samlProviderId}/acs', { ...providerPath(w.organization.id, w.provider.id), body: { SAMLResponse: 'x' }, redirect: 'manual' });
      expect(json.response.status).toBe(415);
    });
  });

  describe('replays', () => {
    it('400 for an assertion already used, even at the same moment; one token only', async () => {
      const w = await buildWorld();
      const member = await createMember(server(), w.organization, 'read');
      const response = respond(w, { email: member.user.email });
      const before = await tokenCount();
      expect((await post(w, { SAMLResponse: response })).response.status).toBe(303);
      const again = await post(w, { SAMLResponse: response });
      expect(again.response.status).toBe(400);
      expect(again.error?.error.message).toBe('SAML response refused: this assertion was already used');
      expect(await tokenCount()).toBe(before + 1);

      const twin = respond(w, { email: member.user.email });
      const statuses = (await Promise.all([post(w, { SAMLResponse: twin }), post(w, { SAMLResponse: twin })])).map((r) => r.response.status).sort();
      expect(statuses).toEqual([303, 400]);
      expect(await tokenCount()).toBe(before + 2);
    });

    it('keeps assertion ids until they expire, and deletes expired ones on the next sign-in', async () => {
      const t = server();
      const w = await buildWorld();
      const member = await createMember(t, w.organization, 'read');
      await t.db
        .insertInto('samlConsumedAssertions')
        .values({ organizationId: w.organization.id, providerId: w.provider.id, assertionId: '_old', expiresAt: new Date(Date.now() - 1000) })
        .execute();
      expect((await post(w, { SAMLResponse: respond(w, { email: member.user.email, assertionId: '_fresh', notOnOrAfterMs: 120_000 }) })).response.status).toBe(303);
      const rows = await t.db.selectFrom('samlConsumedAssertions').select(['assertionId', 'expiresAt']).where('organizationId', '=', w.organization.id).execute();
      expect(rows.map((row) => row.assertionId)).toEqual(['_fresh']);
      // Until NotOnOrAfter plus the accepted clock skew (60 s).
      expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 170_000);
      expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 180_000);
    });

    it('deleting a provider deletes its consumed assertion ids', async () => {
      const t = server();
      const w = await buildWorld();
      const member = await createMember(t, w.organization, 'read');
      await addTeamMember(t, w.organization, w.team, w.admin);
      expect((await post(w, { SAMLResponse: respond(w, { email: member.user.email }) })).response.status).toBe(303);
      await w.admin.client.DELETE('/v1/orgs/{organizationId}/saml/{samlProviderId}', providerPath(w.organization.id, w.provider.id));
      const rows = await t.db.selectFrom('samlConsumedAssertions').select('assertionId').where('organizationId', '=', w.organization.id).execute();
      expect(rows).toEqual([]);
      expect((await w.admin.client.GET('/v1/orgs/{organizationId}/members/{userId}', { params: { path: { organizationId: w.organization.id, userId: member.user.id } } })).data?.sso).toBe(true);
    });
  });
});
