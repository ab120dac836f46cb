// Site rows → API objects (the only place that builds them).
import type { Selectable } from 'kysely';
import type { OrganizationRole } from '../../access/permissions.js';
import { permissions } from '../permissions-objects.js';
import type { Role } from '../../access/roles.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import type { SiteSectionGroupsTable, SiteSectionsTable, SiteSpacesTable } from '../../db/schema.js';
import { toApiSpace } from '../spaces/index.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import { emptyAdaptiveSchema, type AdaptiveSchemaDocument } from './adaptive-schema.js';
import { sectionAddress, siteAddress, siteSpaceAddress, withShareKey } from '../../publication/site-addresses.js';
import { verificationRecords, type HostnameSettings } from './hostname-dns.js';
import type { ShareLinkRow, SiteRow } from './sites.repository.js';

export type ApiSite = Schemas['Site'];
export type ApiSiteSection = Schemas['SiteSection'];
export type ApiSiteSpace = Schemas['SiteSpace'];
export type ApiSiteSectionGroup = Schemas['SiteSectionGroup'];

/** What this server supports for every site (see the spec's `Site.features`). */
const FEATURES: ApiSite['features'] = (
  ['sections', 'section-groups', 'adaptive-content', 'share-links', 'visitor-auth', 'custom-hostname', 'basename', 'proxy', 'customization'] as const
).map((id) => ({ id, plan: 'basic', frozen: false }));

/** A hostname's verification, for the organization's members (the records, what the last check found). */
function hostnameVerification(site: SiteRow, hostnames: HostnameSettings): ApiSite['hostnameVerification'] {
  return {
    status: site.hostnameVerifiedAt ? 'verified' : 'pending',
    records: verificationRecords(hostnames, site.hostname!, site.hostnameToken!),
    ...(site.hostnameCheckedAt ? { checkedAt: site.hostnameCheckedAt.toISOString() } : {}),
    ...(site.hostnameVerifiedAt ? { verifiedAt: site.hostnameVerifiedAt.toISOString() } : {}),
    ...(site.hostnameProblem && !site.hostnameVerifiedAt ? { problem: site.hostnameProblem } : {}),
  };
}

/** The site as `role` sees it (undefined: a visitor of its published view, who sees no verification). */
export function toApiSite(site: SiteRow, role: OrganizationRole, urls: Urls, hostnames: HostnameSettings): ApiSite {
  const address = siteAddress(urls, site);
  return {
    object: 'site',
    id: site.id,
    type: site.type,
    title: site.title,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    ...(site.hostname && site.hostnameToken && role != null ? { hostnameVerification: hostnameVerification(site, hostnames) } : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxy ? { proxy: { origin: `https://${site.proxy}`, target: address } } : {}),
    visibility: site.visibility,
    published: site.published,
    siteSpaces: site.siteSpacesCount,
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveContentEnabled },
    features: FEATURES,
    urls: {
      location: urls.api(`/v1/orgs/${site.organizationId}/sites/${site.id}`),
      app: urls.app(`/o/${site.organizationId}/sites/${site.id}`),
      ...(site.published ? { published: address } : {}),
    },
    permissions: permissions().site(role),
  };
}

/** What a structure's objects are mapped with: addresses, and the spaces the caller may see. */
export type StructureContext = {
  urls: Urls;
  /** The site's published address while it is published, else null. */
  root: string | null;
  /** A share-link key that opens the site: it completes every published address. */
  shareKey: string | undefined;
  sectionPaths: ReadonlyMap<string, string>;
  /** The spaces the caller can see, with their role and published address. */
  spaces: ReadonlyMap<string, { space: SpaceRow; role: Role; published: string | undefined }>;
};

type SiteSpaceLike = Pick<Selectable<SiteSpacesTable>, 'id' | 'spaceId' | 'sectionId' | 'path' | 'condition'> & { effectiveDefault: boolean };

export function toApiSiteSpace(row: SiteSpaceLike, spaceTitle: string, context: StructureContext): ApiSiteSpace {
  const seen = context.spaces.get(row.spaceId);
  const sectionPath = row.sectionId === null ? null : (context.sectionPaths.get(row.sectionId) ?? null);
  return {
    object: 'site-space',
    id: row.id,
    path: row.path,
    ...(row.sectionId ? { section: row.sectionId } : {}),
    ...(seen ? { space: toApiSpace(seen.space, seen.role, context.urls, seen.published) } : {}),
    title: spaceTitle,
    default: row.effectiveDefault,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    urls: context.root ? { published: withShareKey(siteSpaceAddress(context.root, sectionPath, row.path), context.shareKey) } : {},
  };
}

type SectionLike = Pick<Selectable<SiteSectionsTable>, 'id' | 'title' | 'description' | 'isDefault' | 'path' | 'condition' | 'groupId' | 'icon'>;

export function toApiSiteSection(row: SectionLike, siteSpaces: ApiSiteSpace[], context: StructureContext): ApiSiteSection {
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    ...(row.description !== null ? { description: row.description } : {}),
    default: row.isDefault,
    path: row.path,
    ...(row.condition !== null ? { condition: row.condition } : {}),
    ...(row.groupId ? { sectionGroup: row.groupId } : {}),
    ...(row.icon !== null ? { icon: row.icon } : {}),
    siteSpaces,
    urls: context.root ? { published: withShareKey(sectionAddress(context.root, row.path), context.shareKey) } : {},
  };
}

export function toApiSiteSectionGroup(row: Pick<Selectable<SiteSectionGroupsTable>, 'id' | 'title' | 'icon'>, sections: ApiSiteSection[]): ApiSiteSectionGroup {
  return { object: 'site-section-group', id: row.id, title: row.title, ...(row.icon !== null ? { icon: row.icon } : {}), sections };
}

export function toApiAdaptiveSchema(site: SiteRow, urls: Urls): Schemas['SiteAdaptiveSchema'] {
  const jsonSchema = (site.adaptiveSchema as AdaptiveSchemaDocument | null) ?? emptyAdaptiveSchema(urls.api(`/v1/orgs/${site.organizationId}/sites/${site.id}/adaptive-schema`));
  return {
    object: 'site-adaptive-schema',
    jsonSchema: jsonSchema as Schemas['SiteAdaptiveSchema']['jsonSchema'],
    updatedAt: (site.adaptiveSchemaUpdatedAt ?? site.createdAt).toISOString(),
  };
}

type Customization = Schemas['SiteCustomization'];
type CustomizationInput = Schemas['SiteCustomizationInput'];

const DEFAULT_STYLING: Customization['styling'] = {
  theme: 'clean',
  primaryColor: { light: '#346DDB', dark: '#346DDB' },
  infoColor: { light: '#787878', dark: '#787878' },
  successColor: { light: '#02A62A', dark: '#02A62A' },
  warningColor: { light: '#F59E0B', dark: '#F59E0B' },
  dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
  corners: 'rounded',
  links: 'default',
  font: 'Inter',
  icons: 'regular',
  sidebar: { background: 'default', list: 'default' },
  search: 'subtle',
};

/** The stored customization (what was PUT) with every default filled in. */
export function toApiCustomization(stored: CustomizationInput | null, siteTitle: string): Customization {
  const input = stored ?? {};
  const styling = input.styling ?? {};
  return {
    title: input.title ?? siteTitle,
    styling: {
      ...DEFAULT_STYLING,
      ...styling,
      sidebar: { ...DEFAULT_STYLING.sidebar, ...styling.sidebar },
    },
    internationalization: { locale: input.internationalization?.locale ?? 'en' },
    ...(input.favicon ? { favicon: input.favicon } : {}),
    ...(input.logo ? { logo: input.logo } : {}),
    ...(input.header ? { header: input.header } : {}),
    ...(input.footer ? { footer: input.footer } : {}),
  };
}

export function toApiShareLink(row: ShareLinkRow): Schemas['SiteShareLink'] {
  return {
    object: 'site-share-link',
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    ...(row.createdBy ? { createdBy: row.createdBy } : {}),
  };
}

export function toApiVisitorAuth(site: SiteRow, secret?: string): Schemas['SiteVisitorAuth'] {
  return {
    object: 'site-visitor-auth',
    fallbackURL: site.visitorAuthFallbackUrl,
    ...(site.visitorAuthSecretCreatedAt ? { secretCreatedAt: site.visitorAuthSecretCreatedAt.toISOString() } : {}),
    ...(secret ? { secret } : {}),
  };
}
