import type { TokenRow } from '../../auth/tokens.repository.js';
import type { ApiCreatedToken, ApiToken } from '../../schemas.js';

export function toApiToken(row: TokenRow): ApiToken {
  return {
    object: 'api-token',
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    ...(row.organizationId ? { organization: row.organizationId } : {}),
  };
}

export function toApiCreatedToken(row: TokenRow, secret: string): ApiCreatedToken {
  return {
    object: 'api-token',
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    ...(row.organizationId ? { organization: row.organizationId } : {}),
    token: secret,
  };
}
