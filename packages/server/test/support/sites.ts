// Sites built through the API (as their owner would), for the sites tests and the authorization matrix.
import type { ContentWorkspaceClient } from '@content-workspace/sdk';
import type { TestDnsServer } from './dns-server.js';

type Site = { id: string };

export const sitePath = (organizationId: string, siteId: string) => ({ params: { path: { organizationId, siteId } } });

/** A site holding `spaces` at its root. */
export async function createSite(client: ContentWorkspaceClient, organizationId: string, body: { title?: string; spaces?: string[]; visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' } = {}): Promise<Site> {
  const { data, error } = await client.POST('/v1/orgs/{organizationId}/sites', { params: { path: { organizationId } }, body });
  if (!data) throw new Error(`createSite: ${JSON.stringify(error)}`);
  return data;
}

/** A section of `site` holding `spaceId`. */
export async function addSection(client: ContentWorkspaceClient, organizationId: string, siteId: string, spaceId: string, title?: string) {
  const { data, error } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/sections', { ...sitePath(organizationId, siteId), body: { spaceId, ...(title ? { title } : {}) } });
  if (!data) throw new Error(`addSection: ${JSON.stringify(error)}`);
  return data;
}

export async function addSiteSpace(client: ContentWorkspaceClient, organizationId: string, siteId: string, spaceId: string, sectionId?: string) {
  const { data, error } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/site-spaces', { ...sitePath(organizationId, siteId), body: { spaceId, ...(sectionId ? { sectionId } : {}) } });
  if (!data) throw new Error(`addSiteSpace: ${JSON.stringify(error)}`);
  return data;
}

export async function createGroup(client: ContentWorkspaceClient, organizationId: string, siteId: string, title: string, sections: string[] = []) {
  const { data, error } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/section-groups', { ...sitePath(organizationId, siteId), body: { title, sections } });
  if (!data) throw new Error(`createGroup: ${JSON.stringify(error)}`);
  return data;
}

export async function publish(client: ContentWorkspaceClient, organizationId: string, siteId: string) {
  const { response } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/publish', sitePath(organizationId, siteId));
  if (response.status !== 200) throw new Error(`publish: ${response.status}`);
}

/**
 * Gives `site` the custom `hostname` as its owner would: claims it, publishes the TXT record the claim
 * asks for on the test DNS server, and has it checked. Answers the verified site.
 */
export async function claimHostname(client: ContentWorkspaceClient, organizationId: string, siteId: string, hostname: string, dns: TestDnsServer) {
  const claimed = await client.PATCH('/v1/orgs/{organizationId}/sites/{siteId}', { ...sitePath(organizationId, siteId), body: { hostname } });
  const txt = claimed.data?.hostnameVerification?.records.find((record) => record.type === 'TXT');
  if (!txt) throw new Error(`claimHostname: ${JSON.stringify(claimed.error ?? claimed.data)}`);
  dns.setTxt(txt.name, [txt.value]);
  const { data, error } = await client.POST('/v1/orgs/{organizationId}/sites/{siteId}/hostname/verify', sitePath(organizationId, siteId));
  if (data?.hostnameVerification?.status !== 'verified') throw new Error(`claimHostname: ${JSON.stringify(error ?? data)}`);
  return data;
}
