// Link items and backlinks → API objects (Link, Backlink).
import type { components } from '@content-workspace/contract';
import type { LinkItem } from '../../content/links/report.js';
import type { Backlink } from './links.service.js';

type ApiLink = components['schemas']['Link'];
type ApiBacklink = components['schemas']['Backlink'];

export function toApiLink(item: LinkItem): ApiLink {
  return { status: item.status, relation: item.relation, targetReference: item.targetReference, locationReferences: item.locationReferences };
}

export function toApiBacklink(backlink: Backlink, where: { organizationId: string; spaceId: string; revisionId: string; fileId: string }): ApiBacklink {
  return {
    kind: 'file',
    organization: where.organizationId,
    space: where.spaceId,
    versionContext: { type: 'revision', revision: where.revisionId },
    file: where.fileId,
    page: backlink.page,
  };
}
