// Proof that whoever claims a custom hostname controls its DNS (issue 25, F6): the records a claim asks
// for, and the lookup that finds them. A claim's token is random and its own, so a record made for one
// site never proves another's — unlike a plain CNAME to the server, which every tenant's claim of the
// same name would share (a dangling record left by a former site would hand its hostname to whoever
// claimed it next). The CNAME form therefore names the token too: `{token}.{SITE_CNAME_DOMAIN}`,
// offered only when the operator has a wildcard record for that domain pointing at the server.
//
// Lookups go through a `node:dns` Resolver on the configured servers (`SITE_DNS_SERVERS`; the system's
// otherwise), with a short timeout per try and one deadline for the whole check: never on the published
// pages' path, and never holding a request for long.
import { Resolver } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';

/** The label under the hostname where its TXT record lives (a CNAME'd name can hold no other record). */
export const TXT_LABEL = '_content-workspace';
const TXT_PREFIX = 'content-workspace-verification=';
/** A DNS name is at most 253 characters: the TXT record's name must fit. */
export const MAX_HOSTNAME_LENGTH = 253 - TXT_LABEL.length - 1;

const TRY_TIMEOUT_MS = 1_000;
const TRIES = 2;
/** The longest one check takes, whatever the servers do. */
export const CHECK_DEADLINE_MS = 3_000;

export type HostnameSettings = Config['sites'];
export type DnsRecord = { type: 'TXT' | 'CNAME'; name: string; value: string };
export type HostnameProof = { proven: true; by: 'TXT' | 'CNAME' } | { proven: false; problem: string };

/** A claim's token: 32 lowercase hex digits (a DNS label as it is, whatever the case of the lookup). */
export const newHostnameToken = () => randomBytes(16).toString('hex');

/** The records that prove the claim of `hostname` with `token`: one of them is enough. */
export function verificationRecords(settings: HostnameSettings, hostname: string, token: string): DnsRecord[] {
  const records: DnsRecord[] = [{ type: 'TXT', name: `${TXT_LABEL}.${hostname}`, value: `${TXT_PREFIX}${token}` }];
  if (settings.cnameDomain) records.push({ type: 'CNAME', name: hostname, value: `${token}.${settings.cnameDomain}` });
  return records;
}

const codeOf = (reason: unknown) => String((reason as { code?: unknown } | null)?.code ?? 'EUNKNOWN');
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);
const TIMED_OUT = new Set(['ETIMEOUT', 'ECANCELLED', 'TIMEOUT', 'CANCELLED']);

function failure(name: string, kind: string, reason: unknown): string {
  const code = codeOf(reason);
  if (NO_RECORD.has(code)) return `No ${kind} record at ${name}`;
  if (TIMED_OUT.has(code)) return `The DNS lookup of ${name} timed out`;
  return `The DNS lookup of ${name} failed (${code})`;
}

/**
 * Looks for the claim's records: proven by the first found, else the problem (the TXT record's first,
 * the one every claim is offered). At most CHECK_DEADLINE_MS.
 */
export async function checkHostname(settings: HostnameSettings, hostname: string, token: string): Promise<HostnameProof> {
  const resolver = new Resolver({ timeout: TRY_TIMEOUT_MS, tries: TRIES });
  if (settings.dnsServers.length > 0) resolver.setServers(settings.dnsServers);
  const [txt, cname] = verificationRecords(settings, hostname, token);
  const deadline = setTimeout(() => resolver.cancel(), CHECK_DEADLINE_MS);
  try {
    const [texts, targets] = await Promise.allSettled([resolver.resolveTxt(txt!.name), cname ? resolver.resolveCname(cname.name) : Promise.resolve([])]);
    // A TXT record may be split in strings of 255 characters: joined, it is one value.
    if (texts.status === 'fulfilled' && texts.value.some((chunks) => chunks.join('') === txt!.value)) return { proven: true, by: 'TXT' };
    if (cname && targets.status === 'fulfilled' && targets.value.some((target) => target.toLowerCase().replace(/\.$/, '') === cname.value)) return { proven: true, by: 'CNAME' };
    if (texts.status === 'rejected') return { proven: false, problem: failure(txt!.name, 'TXT', texts.reason) };
    return { proven: false, problem: `The TXT record at ${txt!.name} does not hold ${txt!.value}` };
  } finally {
    clearTimeout(deadline);
  }
}
