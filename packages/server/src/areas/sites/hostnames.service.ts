// Custom hostnames of sites (issue 25, F6): a hostname is claimed by a site (PATCH), stays pending until
// its DNS shows one of the claim's records (hostname-dns.ts), and only then is served: the site takes its
// `host:` address, from whichever site held it before (that site's claim is pending again — control of
// a name's DNS is the only title to it). Claims are checked on demand (`verifySiteHostname`) and by a
// job every minute (hostnames.job.ts); a check runs outside any transaction (it may take seconds) and
// is recorded only if the claim is still the one checked.
//
// Nobody may claim the server's own hostnames, and within an organization one site holds a hostname.
// Across organizations claims are not unique: a pending claim blocks no one (an early claim of someone
// else's name would otherwise be a squat), and the answer to a claim tells nothing of other tenants.
import { sql, type Updateable } from 'kysely';
import ipaddr from 'ipaddr.js';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import type { SitesTable } from '../../db/schema.js';
import { conflict, invalidField } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { checkHostname, MAX_HOSTNAME_LENGTH, newHostnameToken, type HostnameProof } from './hostname-dns.js';
import { claimDueHostnames, holdHostname, lockClaim, lockHostnameHolder, releaseHostname, type HostnameClaim } from './hostnames.repository.js';
import { forgetUnknownHost, serverHostnames } from './published/site-target.js';
import { findSite, updateSite, type SiteRow } from './sites.repository.js';
import { siteData } from './site-events.js';
import { recordEvents, SYSTEM_ACTOR, type NewEvent } from '../events/index.js';
import { requireSite } from './structure.service.js';

type Deps = Pick<AppContext, 'db' | 'config' | 'log' | 'urls' | 'caches'>;

/** Claims checked by one run of the job, and checked at once. */
const JOB_BATCH = 20;
const JOB_CONCURRENCY = 5;

/** Serializes the changes of one hostname's claims (claims, checks, moves) across organizations. */
async function lockHostname(trx: Executor, hostname: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('site-hostname'), hashtext(${hostname}))`.execute(trx);
}

function refusal(config: AppContext['config'], hostname: string): string | undefined {
  if (hostname.length > MAX_HOSTNAME_LENGTH) return `is longer than ${MAX_HOSTNAME_LENGTH} characters (its verification record must fit in a DNS name)`;
  if (ipaddr.isValid(hostname)) return 'is an IP address, not a hostname';
  if (serverHostnames(config).has(hostname)) return "is one of this server's own hostnames";
  return undefined;
}

/**
 * The columns that move `site` to the hostname `next` (null: none), in the transaction of the site's
 * PATCH (under the organization's sites lock). A new hostname is a new claim: pending, with a new token,
 * and the previous one's address (if it was served) is released. The same hostname changes nothing.
 */
export async function changeHostname(trx: Executor, config: AppContext['config'], site: SiteRow, next: string | null): Promise<Updateable<SitesTable>> {
  if (next === site.hostname) return {};
  if (next !== null) {
    const refused = refusal(config, next);
    if (refused) throw invalidField('/body/hostname', refused);
    const taken = await trx.selectFrom('sites').select('id').where('organizationId', '=', site.organizationId).where('hostname', '=', next).executeTakeFirst();
    if (taken) throw conflict('Another site of this organization has this hostname');
  }
  for (const hostname of [site.hostname, next].filter((name): name is string => name !== null).sort()) await lockHostname(trx, hostname);
  if (site.hostname) await releaseHostname(trx, site.hostname, site.organizationId, site.id);
  const now = sql<Date>`now()` as never;
  return {
    hostname: next,
    hostnameToken: next === null ? null : newHostnameToken(),
    hostnameClaimedAt: next === null ? null : now,
    hostnameVerifiedAt: null,
    hostnameCheckedAt: null,
    hostnameProblem: null,
  };
}

/** Looks for the claim's records (the server's own hostnames never prove: the configuration may have changed). */
function prove(config: AppContext['config'], claim: HostnameClaim): Promise<HostnameProof> {
  const refused = refusal(config, claim.hostname);
  if (refused) return Promise.resolve({ proven: false, problem: `The hostname ${refused}` });
  return checkHostname(config.sites, claim.hostname, claim.token);
}

/**
 * Records what a check of `claim` found, if the site still holds that claim: proven, the site takes the
 * hostname's address (and its `updatedAt` moves: its published address and canonical links change),
 * the previous holder's claim going back to pending, each site's `site.updated` recorded (by the server:
 * the DNS decided); else the problem (no event: a check that finds nothing new is no change).
 * True when it was recorded.
 */
async function recordCheck(deps: Deps, claim: HostnameClaim, proof: HostnameProof): Promise<boolean> {
  const recorded = await deps.db.transaction().execute(async (trx) => {
    await lockHostname(trx, claim.hostname);
    if (!(await lockClaim(trx, claim))) return false;
    const now = sql<Date>`now()` as never;
    if (!proof.proven) {
      await trx.updateTable('sites').set({ hostnameCheckedAt: now, hostnameProblem: proof.problem }).where('organizationId', '=', claim.organizationId).where('id', '=', claim.siteId).execute();
      return true;
    }
    const holder = await lockHostnameHolder(trx, claim.hostname);
    const changed: Array<{ organizationId: string; siteId: string }> = [claim];
    if (holder && (holder.organizationId !== claim.organizationId || holder.siteId !== claim.siteId)) {
      await updateSite(trx, holder.organizationId, holder.siteId, { hostnameVerifiedAt: null, hostnameCheckedAt: now, hostnameProblem: 'Another site proved control of this hostname' });
      changed.unshift(holder);
    }
    await holdHostname(trx, claim.hostname, claim.organizationId, claim.siteId);
    await updateSite(trx, claim.organizationId, claim.siteId, { hostnameVerifiedAt: now, hostnameCheckedAt: now, hostnameProblem: null });
    const events: NewEvent[] = [];
    for (const { organizationId, siteId } of changed) {
      const site = (await findSite(trx, organizationId, siteId))!;
      events.push({ type: 'site.updated', organizationId, actor: SYSTEM_ACTOR, data: siteData(site, deps) });
    }
    await recordEvents(trx, events);
    return true;
  });
  if (recorded && proof.proven) forgetUnknownHost(deps.caches, claim.hostname);
  return recorded;
}

/** `verifySiteHostname`: checks the site's pending hostname now (a verified one is left as it is). */
export async function verifySiteHostname(app: Deps, organizationId: string, siteId: string): Promise<void> {
  const site = await requireSite(app.db, organizationId, siteId);
  if (!site.hostname || !site.hostnameToken) throw conflict('The site has no hostname to verify');
  if (site.hostnameVerifiedAt) return;
  const claim = { organizationId, siteId, hostname: site.hostname, token: site.hostnameToken };
  const proof = await prove(app.config, claim);
  if ((await recordCheck(app, claim, proof)) && proof.proven) logProven(app.log, claim, proof);
}

function logProven(log: Logger, claim: HostnameClaim, proof: Extract<HostnameProof, { proven: true }>) {
  log.info({ organizationId: claim.organizationId, siteId: claim.siteId, hostname: claim.hostname, by: proof.by }, 'site hostname verified');
}

/** The job: checks the pending claims that are due, a few at once; answers how many were checked. */
export async function verifyDueHostnames(deps: Deps): Promise<number> {
  const due = await claimDueHostnames(deps.db, JOB_BATCH);
  const queue = [...due];
  const worker = async () => {
    for (let claim = queue.shift(); claim; claim = queue.shift()) {
      const proof = await prove(deps.config, claim);
      if ((await recordCheck(deps, claim, proof)) && proof.proven) logProven(deps.log, claim, proof);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOB_CONCURRENCY, due.length) }, worker));
  return due.length;
}
