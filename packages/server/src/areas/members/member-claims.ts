// The `serviceVisitorClaims` JWT of `ping`: the member's claims, signed (HS256) with the server's stored
// `jwt` key so any instance can issue and verify them.
import { SignJWT } from 'jose';
import type { Role } from '../../access/roles.js';

export const MEMBER_CLAIMS_TTL_SECONDS = 600;

export type MemberClaims = { userId: string; organizationId: string; role: Role | null; email: string; name: string };

export async function signMemberClaims(key: Uint8Array, issuer: string, claims: MemberClaims): Promise<string> {
  return new SignJWT({ organization: claims.organizationId, role: claims.role, email: claims.email, name: claims.name })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(`${MEMBER_CLAIMS_TTL_SECONDS}s`)
    .sign(key);
}
